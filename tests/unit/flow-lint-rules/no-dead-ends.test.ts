/** The flow lint's rule no-dead-ends: src/flow-tools/lint/rules/no-dead-ends.ts. */
import { describe, expect, it } from 'vitest';
import { lint, broken, expectProblem, expectKind, type KindCase } from './helpers';

describe('no-dead-ends', () => {
  it('non-final dead end', () => {
    const text = broken((f) => {
      delete f.states.supplementError.on;
    });
    expectProblem(lint(text), text, '/states/supplementError', 'state "supplementError" is a dead end');
  });

  it('a sub-state with no way out is a dead end, unless it is entered with "leaveForProvider"', () => {
    const text = broken((f) => {
      f.states.ekycPreparation.states.starting.invoke.onDone = 'leaving';
      f.states.ekycPreparation.states.startingJpki.invoke.onDone = 'leaving';
    });
    expectProblem(lint(text), text, '/states/ekycPreparation/states/leaving', 'state "ekycPreparation.leaving" is a dead end: neither it nor "ekycPreparation" has a transition that leads anywhere');
    // A sub-state takes its page's transitions: with one on the page it is no dead end.
    const withWayOut = broken((f) => {
      f.states.ekycPreparation.states.starting.invoke.onDone = 'leaving';
      f.states.ekycPreparation.states.startingJpki.invoke.onDone = 'leaving';
      f.states.ekycPreparation.on = { RESTART: 'redirect' };
    });
    expect(lint(withWayOut).filter((p) => p.message.includes('dead end'))).toEqual([]);
  });

  // Kinds of mistake from the lint's checklist (issue 6): a hand edit of a shipped file and its exact line.
  it.each<KindCase>([
    {
      kind: 'dead end that is not final',
      flow: 'general',
      edits: [['"on": { "RETRY": "supplement" }', '"entry": [{ "type": "clearSessionStorage" }]']],
      pointer: '/states/supplementError',
      lineWith: '"supplementError": {',
      message: 'state "supplementError" is a dead end: it has no transition that leads anywhere; add one, or mark it "type": "final"',
    },
    {
      kind: 'dead end: the hand-over to the identity provider without "leaveForProvider"',
      flow: 'child',
      // Both ways of starting (the photo-ID method and JPKI) hand over; neither does after the edit.
      edits: (['IMAGE_SELFIE_PHOTO_ID', 'JPKI_SIGNATURE'] as const).map((method): [string, string] => [
        `"method": "${method}" },\n            "onDone": { "target": "leaving", "actions": [{ "type": "leaveForProvider" }] }`,
        `"method": "${method}" },\n            "onDone": "leaving"`,
      ]),
      pointer: '/states/parentEkycPreparation/states/leaving',
      lineWith: '"leaving": {}',
      message: 'state "parentEkycPreparation.leaving" is a dead end: neither it nor "parentEkycPreparation" has a transition that leads anywhere',
    },
  ])('$kind', expectKind);
});
