import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { flowPathsOf, formatProblem, lintFlow, lintFlows, type FlowProblem } from '../../src/flow-tools/lint';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (rel: string) => readFileSync(`${root}${rel}`, 'utf8');

const schema = JSON.parse(read('flows/flow.schema.json')) as object;
const generalText = read('flows/general.json');
const childText = read('flows/child.json');
const childPaths = flowPathsOf(childText);
const generalPaths = flowPathsOf(generalText);
const formNames = ['personal', 'workplace', 'branch', 'sealLess', 'confirmation', 'pin', 'parent'];

// The flow file as data, loosely typed on purpose: the tests break it in ways the real type forbids.
type Loose = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- deliberately malformed test data

function lint(text: string, fileName = 'flows/general.json'): FlowProblem[] {
  const otherFlowPaths = fileName === 'flows/child.json' ? generalPaths : childPaths;
  return lintFlow({ fileName, text, schema, formNames, otherFlowPaths });
}

/** A broken copy of general.json, pretty-printed as JSON.stringify(…, null, 2). */
function broken(mutate: (flow: Loose) => void, source = generalText): string {
  const flow = JSON.parse(source) as Loose;
  mutate(flow);
  return JSON.stringify(flow, null, 2);
}

/**
 * Line of a pointer in JSON.stringify(…, null, 2) output, found independently of the lint's own
 * locator: members of a container at depth d are the lines indented by 2(d+1).
 */
function lineOfPointer(text: string, pointer: string): number {
  const lines = text.split('\n');
  let row = 0;
  let depth = 0;
  const segments = pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  for (const segment of segments) {
    const indent = ' '.repeat(2 * (depth + 1));
    const isArray = (lines[row] ?? '').trimEnd().endsWith('[');
    let found = -1;
    let index = 0;
    for (let r = row + 1; r < lines.length; r++) {
      const line = lines[r] ?? '';
      if (!line.startsWith(indent) || line[indent.length] === ' ') {
        if (!line.startsWith(indent)) break; // the container closed
        continue; // deeper line
      }
      const rest = line.slice(indent.length);
      if (isArray) {
        if (rest.startsWith('}') || rest.startsWith(']')) continue;
        if (index === Number(segment)) {
          found = r;
          break;
        }
        index++;
      } else if (rest.startsWith(`${JSON.stringify(segment)}:`)) {
        found = r;
        break;
      }
    }
    if (found < 0) throw new Error(`pointer ${pointer} not found in the text`);
    row = found;
    depth++;
  }
  return row + 1;
}

/** The problem at `pointer` whose message contains `fragment`; its line must be that of the pointer's key in the text. */
function expectProblem(problems: FlowProblem[], text: string, pointer: string, fragment: string): FlowProblem {
  const problem = problems.find((p) => p.pointer === pointer && p.message.includes(fragment));
  expect(problem, `no problem at ${pointer} containing ${JSON.stringify(fragment)}; got:\n${problems.map(formatProblem).join('\n')}`).toBeDefined();
  expect(problem?.line).toBe(lineOfPointer(text, pointer));
  expect(problem?.file).toBe(problems[0]?.file === 'flows/child.json' ? 'flows/child.json' : 'flows/general.json');
  return problem as FlowProblem;
}

describe('shipped flows', () => {
  it('general and child pass, alone and together', () => {
    expect(lint(generalText)).toEqual([]);
    expect(lintFlow({ fileName: 'flows/child.json', text: childText, schema, formNames, otherFlowPaths: flowPathsOf(generalText) })).toEqual([]);
    expect(lintFlows([{ fileName: 'flows/general.json', text: generalText }, { fileName: 'flows/child.json', text: childText }], schema, formNames)).toEqual([]);
  });

  it('the pretty-printed copy used below passes too (the locator test helper finds every key)', () => {
    const text = broken(() => {});
    expect(lint(text)).toEqual([]);
    expect(lineOfPointer(text, '/states/personal/on/NEXT')).toBe(text.split('\n').findIndex((l) => l.includes('"NEXT": "workplace"')) + 1);
  });
});

describe('formatProblem', () => {
  it('prints file:line pointer: message', () => {
    expect(formatProblem({ file: 'flows/general.json', line: 42, pointer: '/states/personal/on/NEXT', message: 'transition target "workplce" does not exist' })).toBe(
      'flows/general.json:42 /states/personal/on/NEXT: transition target "workplce" does not exist',
    );
    expect(formatProblem({ file: 'flows/general.json', line: 3, pointer: '', message: 'x' })).toBe('flows/general.json:3: x');
  });
});

describe('invalid JSON', () => {
  it('reports a trailing comma at the line of the comma', () => {
    const lines = broken(() => {}).split('\n');
    const at = lines.findIndex((l) => l.includes('"title": "お申込み前の確認"'));
    lines[at] += ',';
    const problems = lint(lines.join('\n'));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.line).toBe(at + 1);
    expect(problems[0]?.pointer).toBe('/states/term/meta');
    expect(problems[0]?.message).toMatch(/^invalid JSON at line \d+ column \d+: trailing comma/);
  });

  it('reports a missing comma naming the previous key', () => {
    const lines = broken(() => {}).split('\n');
    const at = lines.findIndex((l) => l.includes('"screen": "Personal",'));
    lines[at] = (lines[at] ?? '').replace(/,$/, '');
    const [problem] = lint(lines.join('\n'));
    expect(problem?.line).toBe(at + 2);
    expect(problem?.message).toContain('expected "," or "}" after the value of "screen"');
  });

  it('reports comments, unquoted keys and an unterminated document', () => {
    expect(lint('{\n  // note\n  "id": "x"\n}')[0]).toMatchObject({ line: 2, message: expect.stringContaining('comments are not allowed') });
    expect(lint('{\n  id: "x"\n}')[0]).toMatchObject({ line: 2, message: expect.stringContaining('double quotes') });
    expect(lint('{\n  "id": "x",\n')[0]).toMatchObject({ line: 3, message: expect.stringContaining('end of file') });
    expect(lint('')[0]).toMatchObject({ line: 1, message: expect.stringContaining('invalid JSON') });
  });

  it('reports a key written twice at its second occurrence', () => {
    const lines = broken(() => {}).split('\n');
    const at = lines.findIndex((l) => l.includes('"title": "お客さま情報の入力"'));
    lines.splice(at, 0, '        "title": "x",');
    const problems = lint(lines.join('\n'));
    expect(problems).toEqual([
      expect.objectContaining({ pointer: '/states/personal/meta/title', line: at + 2, message: expect.stringContaining(`key "title" is written twice in the same object (first at line ${at + 1})`) }),
    ]);
  });
});

describe('schema errors', () => {
  it('a typo in a meta key', () => {
    const text = broken((f) => {
      f.states.personal.meta.scren = f.states.personal.meta.screen;
      delete f.states.personal.meta.screen;
    });
    const p = expectProblem(lint(text), text, '/states/personal/meta/scren', 'unknown key "scren" (allowed keys here: path, screen, step, form, entry, title, exitTo). Did you mean "screen"?');
    expect(formatProblem(p)).toBe(`flows/general.json:${p.line} /states/personal/meta/scren: ${p.message}`);
  });

  it('a typo in a transition key', () => {
    const text = broken((f) => {
      f.states.personal.on.NEXT = { tagret: 'workplace' };
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/personal/on/NEXT/tagret', 'unknown key "tagret" (allowed keys here: target, guard, actions, reenter). Did you mean "target"?');
    expect(problems).toHaveLength(1); // no noise from the string/object/list alternatives
  });

  it('a typo in an action ref reports the key once, not also the missing "type"', () => {
    const text = broken((f) => {
      f.states.term.entry = [{ typ: 'clearSessionStorage' }];
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/term/entry/0/typ', 'Did you mean "type"?');
    expect(problems).toHaveLength(1);
  });

  it('wrong types, missing keys, bad paths, bad state names', () => {
    const text = broken((f) => {
      f.states.workplace.meta.step = '2';
      f.states.branch.meta.path = 'branch';
      delete f.meta.landing;
      f.meta.applicationType = 'GENRAL';
      f.states['sub.state'] = { type: 'final' };
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/workplace/meta/step', '"step" must be integer, not string "2"');
    expectProblem(problems, text, '/states/branch/meta/path', '"path" must start with "/", not "branch"');
    expectProblem(problems, text, '/meta', 'missing the required key "landing"');
    expectProblem(problems, text, '/meta/applicationType', '"applicationType" cannot be "GENRAL" (allowed: GENERAL, CHILD). Did you mean "GENERAL"?');
    expectProblem(problems, text, '/states/sub.state', 'state name "sub.state" must start with a letter');
  });
});

describe('names from the vocabulary', () => {
  it('unknown guard', () => {
    const text = broken((f) => {
      f.states.ekycCallback.invoke.onDone[0].guard = 'supplementRequestd';
    });
    expectProblem(lint(text), text, '/states/ekycCallback/invoke/onDone/0/guard', 'unknown guard "supplementRequestd" (known guards: supplementRequested). Did you mean "supplementRequested"?');
  });

  it('unknown action in entry and in a transition', () => {
    const text = broken((f) => {
      f.states.term.entry[0].type = 'clearSessionStorag';
      f.states.term.on.NEXT.actions = ['storeBank'];
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/term/entry/0/type', 'unknown action "clearSessionStorag" (known actions: clearSessionStorage, storeBankCode, ');
    expectProblem(problems, text, '/states/term/on/NEXT/actions/0', 'unknown action "storeBank"');
  });

  it('unknown actor', () => {
    const text = broken((f) => {
      f.states.redirect.invoke.src = 'completeApp';
    });
    expectProblem(lint(text), text, '/states/redirect/invoke/src', 'unknown actor "completeApp" (known actors: startEkyc, pollEkycStatus, completeApplication). Did you mean "completeApplication"?');
  });

  it('unknown screen', () => {
    const text = broken((f) => {
      f.states.workplace.meta.screen = 'WorkPlace';
    });
    expectProblem(lint(text), text, '/states/workplace/meta/screen', 'Did you mean "Workplace"?');
  });

  it('unknown form', () => {
    const text = broken((f) => {
      f.states.personal.meta.form = 'persona';
    });
    expectProblem(lint(text), text, '/states/personal/meta/form', 'unknown form "persona" (known forms, schemas/<form>.schema.json: branch, confirmation, parent, personal, pin, sealLess, workplace). Did you mean "personal"?');
  });

  it('unknown event', () => {
    const text = broken((f) => {
      f.states.supplement.on.FAILED = f.states.supplement.on.FAIL;
      delete f.states.supplement.on.FAIL;
    });
    expectProblem(lint(text), text, '/states/supplement/on/FAILED', 'unknown event "FAILED" (known events: NEXT, BACK, RETRY, RESTART, FAIL, CODE_SENT, START_EKYC). Did you mean "FAIL"?');
  });
});

describe('inputs of the invoked actors', () => {
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
});

describe('paths', () => {
  it('duplicate path within the flow', () => {
    const text = broken((f) => {
      f.states.workplace.meta.path = '/personal';
    });
    expectProblem(lint(text), text, '/states/workplace/meta/path', `path "/personal" is already used by state "personal" (line ${lineOfPointer(text, '/states/personal/meta/path')})`);
  });

  it('path used by another flow', () => {
    const text = broken((f) => {
      f.states.supplement.meta.path = '/child/term';
    });
    expectProblem(lint(text), text, '/states/supplement/meta/path', 'path "/child/term" is also used by another flow');
  });

  it('exitTo must be a page of another flow', () => {
    // The child flow's failed completion leaves for the general /error page (spec section 8).
    const text = broken((f) => {
      f.states.generalError.meta.exitTo = '/eror';
    }, childText);
    expectProblem(lint(text, 'flows/child.json'), text, '/states/generalError/meta/exitTo', 'Did you mean "/error"?');
    const own = broken((f) => {
      f.states.generalError.meta.exitTo = '/child/term';
    }, childText);
    expectProblem(lint(own, 'flows/child.json'), own, '/states/generalError/meta/exitTo', 'is a page of this flow');
  });

  it('lintFlows finds a path clash in both files and a duplicate flow id', () => {
    const clash = broken((f) => {
      f.states.supplement.meta.path = '/child/term';
    });
    const problems = lintFlows([{ fileName: 'flows/general.json', text: clash }, { fileName: 'flows/child.json', text: childText }], schema, formNames);
    expect(problems.map((p) => `${p.file} ${p.pointer}`)).toEqual(['flows/general.json /states/supplement/meta/path', 'flows/child.json /states/term/meta/path']);
    const copy = broken((f) => {
      for (const s of Object.values(f.states) as Loose[]) if (s.meta?.path) s.meta.path = `/copy${s.meta.path}`;
    });
    const ids = lintFlows(
      [
        { fileName: 'flows/general.json', text: generalText },
        { fileName: 'flows/child.json', text: childText },
        { fileName: 'flows/copy.json', text: copy },
      ],
      schema,
      formNames,
    );
    expect(ids).toEqual([expect.objectContaining({ file: 'flows/copy.json', pointer: '/id', line: lineOfPointer(copy, '/id'), message: 'flow id "general" is already used by flows/general.json; each flow needs its own id' })]);
  });
});

describe('targets and states', () => {
  it('missing sibling target', () => {
    const text = broken((f) => {
      f.states.personal.on.NEXT = 'workplce';
    });
    const p = expectProblem(lint(text), text, '/states/personal/on/NEXT', 'transition target "workplce" does not exist (states: term, verification, personal, workplace, ');
    expect(p.message).toMatch(/\(states: [^)]*\)\. Did you mean "workplace"\?$/);
    expect(formatProblem(p)).toBe(`flows/general.json:${p.line} /states/personal/on/NEXT: ${p.message}`);
    // The pages behind it are not also reported as unreachable: that would only echo this mistake.
    expect(lint(text)).toHaveLength(1);
  });

  it('the line is right in the hand-formatted file too', () => {
    const text = generalText.replace('"NEXT": "workplace"', '"NEXT": "workplce"');
    const problem = lint(text).find((p) => p.message.includes('"workplce"'));
    expect(problem?.line).toBe(text.split('\n').findIndex((l) => l.includes('"workplce"')) + 1);
  });

  it('#id targets: unknown state, other flow id; relative and nested targets', () => {
    const text = broken((f) => {
      f.states.ekycPreparation.states.starting.invoke.onError = '#general.ekycErorr';
      f.states.redirect.invoke.onError = '#child.error';
      f.states.verification.states.address.on.CODE_SENT = '.code';
      f.states.verification.states.code.on.BACK = 'adress';
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/ekycPreparation/states/starting/invoke/onError', 'transition target "#general.ekycErorr" does not exist (states: term,');
    expect(problems.find((p) => p.message.includes('ekycErorr'))?.message).toMatch(/Did you mean "ekycError"\?$/);
    expectProblem(problems, text, '/states/redirect/invoke/onError', 'refers to "#child", but this flow\'s id is "general"');
    expectProblem(problems, text, '/states/verification/states/address/on/CODE_SENT', '"verification.address" has no sub-states');
    expectProblem(problems, text, '/states/verification/states/code/on/BACK', 'transition target "adress" does not exist (states of "verification": address, code). Did you mean "address"?');
  });

  it('initial states', () => {
    const text = broken((f) => {
      f.initial = 'terms';
      f.states.ekycPreparation.initial = 'redy';
      delete f.states.verification.initial;
    });
    const problems = lint(text);
    expectProblem(problems, text, '/initial', 'initial state "terms" does not exist (states: term, ');
    expectProblem(problems, text, '/states/ekycPreparation/initial', 'initial state "redy" does not exist (sub-states of "ekycPreparation": ready, starting, leaving). Did you mean "ready"?');
    expectProblem(problems, text, '/states/verification', 'has sub-states but no "initial"');
  });

  it('bad landing and errorState', () => {
    const text = broken((f) => {
      f.meta.landing = 'trem';
    });
    const problems = lint(text);
    expectProblem(problems, text, '/meta/landing', 'meta.landing "trem" is not a state of this flow (pages: term, verification, ');
    expect(problems[0]?.message).toMatch(/Did you mean "term"\?$/);
    const pathless = broken((f) => {
      f.meta.errorState = 'generalError';
    }, childText);
    expectProblem(lint(pathless, 'flows/child.json'), pathless, '/meta/errorState', 'meta.errorState "generalError" is a state without meta.path');
  });

  it('unreachable state', () => {
    const text = broken((f) => {
      f.states.orphan = { meta: { path: '/orphan', screen: 'Complete', title: 'x' }, type: 'final' };
      f.states.verification.states.spare = { on: { BACK: 'address' } };
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/orphan', 'state "orphan" can never be reached');
    expectProblem(problems, text, '/states/verification/states/spare', 'state "verification.spare" can never be reached');
  });

  it('a state reached only through an unreachable one is unreachable too, and the entry pages are roots', () => {
    const text = broken((f) => {
      f.states.ekycCallback.meta.entry = false;
    });
    const problems = lint(text).filter((p) => p.message.includes('never be reached'));
    expect(problems.map((p) => p.pointer)).toEqual(['/states/ekycCallback', '/states/supplement', '/states/supplementError', '/states/redirect', '/states/complete']);
  });

  it('non-final dead end', () => {
    const text = broken((f) => {
      delete f.states.supplementError.on;
    });
    expectProblem(lint(text), text, '/states/supplementError', 'state "supplementError" is a dead end');
  });

  it('a sub-state with no way out is a dead end, unless it is entered with "leaveForProvider"', () => {
    const text = broken((f) => {
      f.states.ekycPreparation.states.starting.invoke.onDone = 'leaving';
    });
    expectProblem(lint(text), text, '/states/ekycPreparation/states/leaving', 'state "ekycPreparation.leaving" is a dead end: neither it nor "ekycPreparation" has a transition that leads anywhere');
    // A sub-state takes its page's transitions: with one on the page it is no dead end.
    const withWayOut = broken((f) => {
      f.states.ekycPreparation.states.starting.invoke.onDone = 'leaving';
      f.states.ekycPreparation.on = { RESTART: 'redirect' };
    });
    expect(lint(withWayOut).filter((p) => p.message.includes('dead end'))).toEqual([]);
  });

  it('states that only lead to each other are a dead end too', () => {
    const text = broken((f) => {
      delete f.states.supplement.on.NEXT;
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/supplement', 'state "supplement" is a dead end: no way from it leads to a final state or to the identity provider (it only leads to "supplementError", "supplement")');
    expectProblem(problems, text, '/states/supplementError', 'state "supplementError" is a dead end: no way from it leads to a final state');
    expect(problems).toHaveLength(2);
  });

  it('an invoked actor needs both onDone and onError', () => {
    const text = broken((f) => {
      delete f.states.redirect.invoke.onError;
      delete f.states.ekycCallback.invoke.onDone;
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/redirect/invoke', 'the invoked actor "completeApplication" in "redirect" has no onError: when it fails, the applicant would stay on this page for ever');
    expectProblem(problems, text, '/states/ekycCallback/invoke', 'the invoked actor "pollEkycStatus" in "ekycCallback" has no onDone');
  });

  it('page metadata: nested meta, page without screen, exit state not final', () => {
    const text = broken((f) => {
      f.states.verification.states.code.meta = { path: '/code' };
      delete f.states.complete.meta.screen;
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/verification/states/code/meta', 'meta.path is only read on top-level states');
    expectProblem(problems, text, '/states/complete/meta', 'page "complete" (path "/complete") has no meta.screen');
    const exit = broken((f) => {
      delete f.states.generalError.type;
      f.states.generalError.on = { RESTART: 'beforeCheck' };
    }, childText);
    expectProblem(lint(exit, 'flows/child.json'), exit, '/states/generalError/meta/exitTo', 'must be "type": "final"');
  });
});

describe('steps', () => {
  it('step lower than the one before it on the forward path', () => {
    const text = broken((f) => {
      f.states.branch.meta.step = 1;
    });
    expectProblem(lint(text), text, '/states/branch/meta/step', 'step 1 of "branch" is lower than step 2 of "workplace", which leads to it by NEXT');
  });

  it('step above totalSteps, and totalSteps not the largest step', () => {
    const text = broken((f) => {
      f.states.ekycPreparation.meta.step = 9;
      f.states.ekycCallback.meta.step = 9;
    });
    const problems = lint(text);
    expectProblem(problems, text, '/states/ekycPreparation/meta/step', 'step 9 of "ekycPreparation" is outside 1..7');
    expectProblem(problems, text, '/meta/totalSteps', 'meta.totalSteps is 7 but the largest step is 9');
    const lower = broken((f) => {
      f.meta.totalSteps = 8;
    });
    expectProblem(lint(lower), lower, '/meta/totalSteps', 'meta.totalSteps is 8 but the largest step is 7 (state "ekycPreparation"); they must be equal');
  });

  it('the identity provider\'s return is on the forward path: the return page may not count lower than the hand-over page', () => {
    const text = broken((f) => {
      f.states.ekycCallback.meta.step = 6;
    });
    expectProblem(lint(text), text, '/states/ekycCallback/meta/step', 'step 6 of "ekycCallback" is lower than step 7 of "ekycPreparation", which hands over to the identity provider, who sends the applicant back to it');
  });

  it('the last step is carried through pages without a step', () => {
    const text = broken((f) => {
      delete f.states.confirmation.meta.step;
      f.states.pin.meta.step = 2;
      f.states.identificationDocuments.meta.step = 8; // keeps the child's steps going up after the PIN
      f.states.supplementaryDocuments.meta.step = 9;
    }, childText);
    const problems = lintFlow({ fileName: 'flows/child.json', text, schema, formNames, otherFlowPaths: flowPathsOf(generalText) });
    expect(problems).toEqual([
      expect.objectContaining({
        pointer: '/states/pin/meta/step',
        line: lineOfPointer(text, '/states/pin/meta/step'),
        message: 'step 2 of "pin" is lower than step 3 of "branch", which comes before it on the forward path; steps must not go down',
      }),
    ]);
  });

  it('the first step page must be step 1', () => {
    const text = broken((f) => {
      for (const s of Object.values(f.states) as Loose[]) if (s.meta?.step) s.meta.step += 1;
      f.meta.totalSteps = 8;
    });
    expectProblem(lint(text), text, '/states/personal/meta/step', 'the first step page on the forward path, "personal", has step 2; it must be 1');
  });
});

describe('a way back', () => {
  it('missing BACK on a step page', () => {
    const text = broken((f) => {
      delete f.states.workplace.on.BACK;
    });
    expectProblem(lint(text), text, '/states/workplace/on', 'step page "workplace" has no BACK transition, but "personal" leads to it by NEXT; add "BACK": "personal"');
  });

  it('a step page after a page without a step needs BACK too (the spec: personal goes back to verification)', () => {
    const text = broken((f) => {
      delete f.states.personal.on.BACK;
    });
    expectProblem(lint(text), text, '/states/personal/on', 'step page "personal" has no BACK transition, but "verification" leads to it by NEXT; add "BACK": "verification"');
  });

  it('the page after the PIN and the hand-over pages are exempt; other child step pages are not', () => {
    const text = broken((f) => {
      delete f.states.identificationDocuments.on.BACK;
    }, childText);
    const problems = lintFlow({ fileName: 'flows/child.json', text, schema, formNames, otherFlowPaths: flowPathsOf(generalText) });
    expect(problems).toEqual([expect.objectContaining({ pointer: '/states/identificationDocuments/on', line: lineOfPointer(text, '/states/identificationDocuments/on') })]);
  });

  it('BACK must lead to a page that leads here by NEXT', () => {
    const text = broken((f) => {
      f.states.branch.on.BACK = 'personal';
    });
    expectProblem(lint(text), text, '/states/branch/on/BACK', 'BACK from "branch" leads to "personal", but "personal" does not lead to "branch" by NEXT (pages that do: workplace)');
  });
});
