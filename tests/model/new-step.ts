import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FlowConfig, FlowStateConfig } from '../../src/domain/flow/types';
import { repositoryRoot } from '../../src/server/flows/check';

/**
 * What a product owner writes to add steps with new forms, done by a program from the docs
 * alone: the two example forms of docs/forms.md (read from the guide itself, so the guide's
 * examples are what is tested) as new files of a copy of schemas/, and their states in a copy
 * of flows/general.json right after the seal choice (NEXT and BACK around them, step counters
 * and the step total one higher after each). Only JSON: the tests that use these copies prove
 * no code had to change for the steps to be asked, checked, stored, confirmed and completed.
 */

/** The guide's examples: every ```json block after an <!-- example: schemas/<file> --> marker. */
function guideExamples(): Map<string, Record<string, unknown>> {
  const guide = readFileSync(join(repositoryRoot, 'docs', 'forms.md'), 'utf8');
  const examples = new Map<string, Record<string, unknown>>();
  for (const match of guide.matchAll(/<!-- example: schemas\/([\w-]+)\.schema\.json -->\s*```json\n([\s\S]*?)```/g)) {
    examples.set(match[1] as string, JSON.parse(match[2] as string) as Record<string, unknown>);
  }
  return examples;
}

export interface NewStep {
  form: string;
  state: string;
  path: string;
  title: string;
}

/** The guide's first example (a question and a text) and its conditions example, in the order they are added after the seal choice. */
export const NEW_STEPS: readonly NewStep[] = [
  { form: 'contactPreference', state: 'contactPreference', path: '/contact-preference', title: 'ご連絡についてのご希望' },
  { form: 'tradePurpose', state: 'tradePurpose', path: '/trade-purpose', title: 'お取引の目的' },
];
export const NEW_STEP_FLOW = 'general';
export const AFTER_STATE = 'sealLess';

/** The first new step, whose texts the hand-written test follows. */
export const NEW_FORM = 'contactPreference';
export const NEW_STEP = { flow: NEW_STEP_FLOW, state: 'contactPreference', after: AFTER_STATE, path: '/contact-preference' } as const;

/** The first new form's texts, as the tests look for them on the page and in the answers. */
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

/** The conditions example's texts. */
export const TRIAL_FORM = 'tradePurpose';
export const TRIAL_TEXTS = {
  title: 'お取引の目的',
  post: '/applications/trade-purpose',
  kindTitle: '主なお取引',
  kinds: [
    { value: 'SALARY', title: '給与・年金の受取り' },
    { value: 'BUSINESS', title: '事業の決済' },
    { value: 'SAVINGS', title: '貯蓄' },
  ],
  detailTitle: 'お勤め先・事業の内容',
  detailRequired: 'お勤め先・事業の内容を入力してください。',
  declarationTitle: '上記の内容に相違ないことを申告します',
  declarationRequired: '内容をご確認のうえ、チェックを入れてください。',
} as const;

/** The guide's example form of `name`. */
export function exampleForm(name: string): Record<string, unknown> {
  const schema = guideExamples().get(name);
  if (!schema) throw new Error(`docs/forms.md has no example schemas/${name}.schema.json`);
  return schema;
}

function stateOf(flow: FlowConfig, id: string): FlowStateConfig {
  const state = flow.states[id];
  if (!state) throw new Error(`${flow.id} has no state ${id}`);
  return state;
}

/** The flow with `step` right after `afterState` (before the page it led to), later steps counted one higher; as it was when the flow has the state already. */
export function withNewStep(source: FlowConfig, step: NewStep = NEW_STEPS[0] as NewStep, afterState: string = AFTER_STATE): FlowConfig {
  if (source.states[step.state]) return source;
  const flow = structuredClone(source);
  const after = stateOf(flow, afterState);
  const next = after.on?.NEXT;
  if (typeof next !== 'string') throw new Error(`${flow.id}.${afterState} has no plain NEXT to insert a step before`);
  const before = stateOf(flow, next);
  const number = (after.meta?.step ?? 0) + 1;
  for (const state of Object.values(flow.states)) {
    if (state.meta?.step !== undefined && state.meta.step >= number) state.meta.step += 1;
  }
  flow.meta.totalSteps = (flow.meta.totalSteps ?? 0) + 1;
  after.on = { ...after.on, NEXT: step.state };
  before.on = { ...before.on, BACK: step.state };
  const added: FlowStateConfig = {
    meta: { path: step.path, screen: 'FormStep', step: number, form: step.form, title: step.title },
    on: { NEXT: next, BACK: afterState },
  };
  flow.states = Object.fromEntries(Object.entries(flow.states).flatMap(([id, state]) => (id === afterState ? [[id, state], [step.state, added]] : [[id, state]])));
  return flow;
}

/** The flow with every new step after `afterState`, one after the other. */
export function withNewSteps(source: FlowConfig, afterState: string = AFTER_STATE, steps: readonly NewStep[] = NEW_STEPS): FlowConfig {
  let flow = source;
  let after = afterState;
  for (const step of steps) {
    flow = withNewStep(flow, step, after);
    after = step.state;
  }
  return flow;
}

/**
 * Writes `targetDir`/flows and `targetDir`/schemas: copies of the shipped folders (flows
 * edited by `editFlow`, default none) with the new steps and their forms. Returns the folders
 * and the files it wrote that differ from the shipped ones.
 */
/**
 * The new steps under names of their own (`suffix` after each form, state, path and post path):
 * for a test that needs forms the shipped folders cannot already have, whatever a product owner
 * adds to them.
 */
export function renamedSteps(suffix: string): NewStep[] {
  return NEW_STEPS.map((step) => ({ form: `${step.form}${suffix}`, state: `${step.state}${suffix}`, path: `${step.path}-${suffix.toLowerCase()}`, title: step.title }));
}

/**
 * The guide's example form of a (renamed) new step: its $id, post path and field names follow
 * the new name (a field name is written quoted wherever the form names it: properties,
 * required, ui:order, x-ui, messages by field, conditions).
 */
function formOfStep(step: NewStep, suffix: string): Record<string, unknown> {
  const source = exampleForm(step.form.slice(0, step.form.length - suffix.length));
  let text = JSON.stringify(source);
  for (const field of Object.keys((source.properties ?? {}) as object)) text = text.replaceAll(`"${field}"`, `"${field}${suffix}"`);
  const renamed = JSON.parse(text) as Record<string, unknown>;
  const xStep = renamed['x-step'] as { post: string };
  return { ...renamed, $id: `${step.form}.schema.json`, 'x-step': { ...xStep, post: `${xStep.post}-${suffix.toLowerCase()}` } };
}

export function writeFoldersWithNewStep(
  targetDir: string,
  editFlow: (flow: FlowConfig) => FlowConfig = (flow) => flow,
  afterState: string = AFTER_STATE,
  suffix = '',
): { flowsDir: string; schemasDir: string; changed: string[]; steps: NewStep[] } {
  const flowsDir = join(targetDir, 'flows');
  const schemasDir = join(targetDir, 'schemas');
  mkdirSync(targetDir, { recursive: true });
  cpSync(join(repositoryRoot, 'flows'), flowsDir, { recursive: true });
  cpSync(join(repositoryRoot, 'schemas'), schemasDir, { recursive: true });
  const changed: string[] = [];
  const file = join(flowsDir, `${NEW_STEP_FLOW}.json`);
  const before = readFileSync(file, 'utf8');
  const steps = suffix === '' ? [...NEW_STEPS] : renamedSteps(suffix);
  const after = `${JSON.stringify(withNewSteps(editFlow(JSON.parse(before) as FlowConfig), afterState, steps), null, 2)}\n`;
  if (after !== before) changed.push(`${NEW_STEP_FLOW}.json`);
  writeFileSync(file, after);
  for (const step of steps) {
    const { form } = step;
    const target = join(schemasDir, `${form}.schema.json`);
    const text = `${JSON.stringify(suffix === '' ? exampleForm(form) : formOfStep(step, suffix), null, 2)}\n`;
    if (!existsSync(target) || JSON.stringify(JSON.parse(readFileSync(target, 'utf8'))) !== JSON.stringify(JSON.parse(text))) changed.push(`${form}.schema.json`);
    writeFileSync(target, text);
  }
  return { flowsDir, schemasDir, changed, steps };
}
