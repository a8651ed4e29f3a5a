import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FlowConfig, FlowStateConfig } from '../../src/domain/flow/types';
import { repositoryRoot } from '../../src/server/flows/check';

/**
 * What a product owner writes to add a step with a new form, done by a program: a new file
 * schemas/contactPreference.schema.json, and a new state in a copy of flows/general.json
 * right after the seal choice (NEXT and BACK around it, step counters and
 * the step total one higher after it). Only JSON: the test that uses these copies proves no
 * code had to change for the step to be asked, checked, stored, confirmed and completed.
 */

export const NEW_FORM = 'contactPreference';
/** The new state comes right after `after`, before the page `after` led to by NEXT. */
export const NEW_STEP = { flow: 'general', state: 'contactPreference', after: 'sealLess', path: '/contact-preference' } as const;

/** The new form's texts, as the tests look for them on the page and in the answers. */
export const NEW_FORM_TEXTS = {
  title: 'ご連絡についてのご希望',
  timeTitle: 'ご連絡の希望時間帯',
  times: [
    { value: 'MORNING', title: '午前（9時～12時）' },
    { value: 'AFTERNOON', title: '午後（12時～17時）' },
    { value: 'ANYTIME', title: '指定なし' },
  ],
  noteTitle: 'ご連絡にあたってのご要望',
  noteRequired: 'ご連絡にあたってのご要望を入力してください。',
} as const;

export const newFormSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: `${NEW_FORM}.schema.json`,
  title: NEW_FORM_TEXTS.title,
  type: 'object',
  required: ['contactTime', 'contactNote'],
  properties: {
    contactTime: {
      type: 'string',
      title: NEW_FORM_TEXTS.timeTitle,
      oneOf: NEW_FORM_TEXTS.times.map((time) => ({ const: time.value, title: time.title })),
      errorMessage: 'selectRequired',
    },
    contactNote: {
      type: 'string',
      title: NEW_FORM_TEXTS.noteTitle,
      maxLength: 30,
      errorMessage: { type: 'contactNoteRequired', maxLength: 'tooLong:30' },
    },
  },
  errorMessage: { required: { contactTime: 'selectRequired', contactNote: 'contactNoteRequired' } },
  'x-messages': { contactNoteRequired: NEW_FORM_TEXTS.noteRequired },
  'x-step': {
    post: '/applications/contact-preference',
    intro: '口座開設のお手続きについて、当行からご連絡する場合のご希望をお聞かせください。',
  },
  'x-ui': { 'ui:order': ['contactTime', 'contactNote'] },
};

function stateOf(flow: FlowConfig, id: string): FlowStateConfig {
  const state = flow.states[id];
  if (!state) throw new Error(`${flow.id} has no state ${id}`);
  return state;
}

/** The flow with the new state after NEW_STEP.after (before the page it led to), later steps counted one higher. */
export function withNewStep(source: FlowConfig, afterState: string = NEW_STEP.after): FlowConfig {
  const flow = structuredClone(source);
  const after = stateOf(flow, afterState);
  const next = after.on?.NEXT;
  if (typeof next !== 'string') throw new Error(`${flow.id}.${afterState} has no plain NEXT to insert a step before`);
  const before = stateOf(flow, next);
  const step = (after.meta?.step ?? 0) + 1;
  for (const state of Object.values(flow.states)) {
    if (state.meta?.step !== undefined && state.meta.step >= step) state.meta.step += 1;
  }
  flow.meta.totalSteps = (flow.meta.totalSteps ?? 0) + 1;
  after.on = { ...after.on, NEXT: NEW_STEP.state };
  before.on = { ...before.on, BACK: NEW_STEP.state };
  const added: FlowStateConfig = {
    meta: { path: NEW_STEP.path, screen: 'FormStep', step, form: NEW_FORM, title: NEW_FORM_TEXTS.title },
    on: { NEXT: next, BACK: afterState },
  };
  flow.states = Object.fromEntries(Object.entries(flow.states).flatMap(([id, state]) => (id === afterState ? [[id, state], [NEW_STEP.state, added]] : [[id, state]])));
  return flow;
}

/**
 * Writes `targetDir`/flows and `targetDir`/schemas: copies of the shipped folders (flows
 * edited by `editFlow`, default none) with the new step and its schema. Returns the folders.
 */
export function writeFoldersWithNewStep(
  targetDir: string,
  editFlow: (flow: FlowConfig) => FlowConfig = (flow) => flow,
  afterState: string = NEW_STEP.after,
): { flowsDir: string; schemasDir: string } {
  const flowsDir = join(targetDir, 'flows');
  const schemasDir = join(targetDir, 'schemas');
  mkdirSync(targetDir, { recursive: true });
  cpSync(join(repositoryRoot, 'flows'), flowsDir, { recursive: true });
  cpSync(join(repositoryRoot, 'schemas'), schemasDir, { recursive: true });
  const file = join(flowsDir, `${NEW_STEP.flow}.json`);
  const flow = withNewStep(editFlow(JSON.parse(readFileSync(file, 'utf8')) as FlowConfig), afterState);
  writeFileSync(file, `${JSON.stringify(flow, null, 2)}\n`);
  writeFileSync(join(schemasDir, `${NEW_FORM}.schema.json`), `${JSON.stringify(newFormSchema, null, 2)}\n`);
  return { flowsDir, schemasDir };
}
