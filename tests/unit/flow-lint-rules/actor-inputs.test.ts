/** The flow lint's rule actor-inputs: src/flow-tools/lint/rules/actor-inputs.ts. */
import { describe, expect, it } from 'vitest';
import { lint, broken, expectProblem, expectKind, type KindCase } from './helpers';

describe('actor-inputs', () => {
  it('the eKYC polling settings must be whole numbers in range', () => {
    const text = broken((f) => {
      f.states.ekycCallback.invoke.input = { intervalMs: '5s', maxTries: 0 };
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/ekycCallback/invoke/input/intervalMs', '"intervalMs" must be a whole number from 1000 to 60000 (milliseconds between two status checks: 5000 is 5 seconds), not "5s"');
    expectProblem(problems, text, '/states/ekycCallback/invoke/input/maxTries', '"maxTries" must be a whole number from 1 to 100');
    const seconds = broken((f) => {
      f.states.ekycCallback.invoke.input.intervalMs = 5;
    });
    expectProblem(lint(seconds), seconds, '/states/ekycCallback/invoke/input/intervalMs', 'not 5');
  });

  it('a misspelt input is named once, with a suggestion', () => {
    const text = broken((f) => {
      f.states.ekycCallback.invoke.input = { intervalMs: 5000, maxtries: 12 };
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/ekycCallback/invoke/input/maxtries', 'unknown input "maxtries" of the actor "pollEkycStatus" (its inputs: intervalMs, maxTries). Did you mean "maxTries"?');
    expect(problems).toHaveLength(1);
  });

  it('a missing input, an input of an actor that takes none, and the application type of the flow', () => {
    const text = broken((f) => {
      delete f.states.ekycCallback.invoke.input;
      f.states.redirect.invoke.input = { applicationType: 'GENERAL' };
      f.states.ekycPreparation.states.starting.invoke.input.applicationType = 'CHILD';
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/ekycCallback/invoke', 'the actor "pollEkycStatus" needs "input": { "intervalMs": …, "maxTries": … }');
    expectProblem(problems, text, '/states/redirect/invoke/input', 'the actor "completeApplication" takes no input; remove "input"');
    expectProblem(problems, text, '/states/ekycPreparation/states/starting/invoke/input/applicationType', '"applicationType" must be "GENERAL", the meta.applicationType of this flow, not "CHILD"');
  });

  it('the method of an identity-check start is one started at a provider, with a suggestion', () => {
    const text = broken((f) => {
      f.states.ekycPreparation.states.startingJpki.invoke.input.method = 'JPKI_SIGNATUR';
      f.states.ekycPreparation.states.starting.invoke.input.method = 'CHILD_DOCUMENT_IMAGES';
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/ekycPreparation/states/startingJpki/invoke/input/method', '"method" must be a method started at a provider, not "JPKI_SIGNATUR" (the methods: IMAGE_SELFIE_PHOTO_ID, JPKI_SIGNATURE, IC_CHIP_AND_FACE). Did you mean "JPKI_SIGNATURE"?');
    expectProblem(problems, text, '/states/ekycPreparation/states/starting/invoke/input/method', 'not "CHILD_DOCUMENT_IMAGES"');
  });

  // Kinds of mistake from the lint's checklist (issue 6): a hand edit of a shipped file and its exact line.
  it.each<KindCase>([
    {
      kind: 'eKYC polling settings out of range (seconds written for milliseconds)',
      flow: 'child',
      edits: [['"intervalMs": 5000', '"intervalMs": 5']],
      pointer: '/states/ekycCallback/invoke/input/intervalMs',
      lineWith: '"intervalMs": 5,',
      message: '"intervalMs" must be a whole number from 1000 to 60000 (milliseconds between two status checks: 5000 is 5 seconds), not 5',
    },
  ])('$kind', expectKind);
});
