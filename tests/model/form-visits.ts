import { formsOf } from '../../src/domain/flow/model';
import { GENERIC_FORM_SCREEN } from '../../src/domain/flow/vocabulary';
import type { FieldStates } from '../../src/domain/forms/field-states';
import type { FormSchema } from '../../src/domain/forms/format';
import { conditionHeld, conditionsOfForm } from '../../src/flow-tools/samples';
import { visitAnswers } from '../e2e/drivers/generic-form';
import { FORMS_WITH_DRIVER } from '../e2e/drivers/own-forms';
import { ownFormStates } from '../e2e/drivers/own-variants';
import type { PlannedPath } from './plan';
import { topLevelStateOf, transitionTaken, type TestFlow } from './test-machine';
import type { CoverageCount } from './plan';

/**
 * The visits of the form steps along a flow's planned journeys, and what they cover of the forms'
 * conditions. A form without a driver of its own is answered from its schema (generic-form.ts),
 * its n-th visit across the journeys (in the plan's order) taking the variant of samples.ts:
 * the first visit asks what its conditions can ask, the next skips it, and so on. A form with a
 * driver of its own is answered as its journey's variant says (own-variants.ts). So each
 * condition is seen holding and not holding, and each conditional field asked and skipped, as
 * long as the journeys visit the form twice; the report says which are left out and why.
 */

/** Where each form step is submitted along the journeys: `${pathIndex}:${stepIndex}` → the visit (0-based) of that form. */
export type FormVisits = ReadonlyMap<string, number>;

export const visitKey = (pathIndex: number, stepIndex: number) => `${pathIndex}:${stepIndex}`;

/** The forms of a generic form step a planned step submits (its NEXT): none for another step. */
function submittedForms(testFlow: TestFlow, path: PlannedPath, stepIndex: number): string[] {
  const step = path.steps[stepIndex];
  const before = path.steps[stepIndex - 1]?.state;
  if (!step || !before) return [];
  const taken = transitionTaken(testFlow, before, step.event);
  const meta = testFlow.flow.states[topLevelStateOf(before)]?.meta;
  if (taken?.kind !== 'user' || taken.flowEvent !== 'NEXT' || meta?.screen !== GENERIC_FORM_SCREEN) return [];
  return formsOf(meta.form);
}

const ownDriver = new Set<string>(FORMS_WITH_DRIVER);

/** A submission of a form along the journeys: which journey, which visit of the form, and whether a driver of its own answers it (its page's first form's). */
interface FormSubmission {
  form: string;
  journey: number;
  step: number;
  /** The first form of its page (a page of several forms is one visit of each; its first form's count numbers it). */
  first: boolean;
  visit: number;
  driven: boolean;
}

function submissionsOf(testFlow: TestFlow, paths: readonly PlannedPath[]): FormSubmission[] {
  const counts = new Map<string, number>();
  return paths.flatMap((path, journey) =>
    path.steps.flatMap((_step, index) => {
      const forms = submittedForms(testFlow, path, index);
      const driven = forms[0] !== undefined && ownDriver.has(forms[0]);
      return forms.map((form, order) => {
        const visit = counts.get(form) ?? 0;
        counts.set(form, visit + 1);
        return { form, journey, step: index, first: order === 0, visit, driven };
      });
    }),
  );
}

export function formVisitsOf(testFlow: TestFlow, paths: readonly PlannedPath[]): FormVisits {
  return new Map(submissionsOf(testFlow, paths).flatMap(({ journey, step, first, visit }) => (first ? [[visitKey(journey, step), visit] as const] : [])));
}

export interface ConditionCoverage {
  /** Each condition of each form the journeys submit, both ways: "<form>.<field> <keyword> holds" and "… does not hold". */
  ways: CoverageCount;
}

/**
 * What the journeys cover of the forms' conditions; `banks` is the bank of each journey (the
 * samples and the drivers' answers read its settings). A form answered from its schema is
 * judged on the samples of its visit's variant, one with a driver of its own on the answers of
 * its journey's variant (tests/e2e/drivers/own-variants.ts): both as the engine judges them.
 */
export function conditionCoverage(testFlow: TestFlow, paths: readonly PlannedPath[], banks: readonly string[]): ConditionCoverage {
  const { flow } = testFlow;
  const applicationType = flow.meta.applicationType;
  const seen = new Map<string, { schema: FormSchema; states: FieldStates[] }>();
  for (const { form, journey, visit, driven } of submissionsOf(testFlow, paths)) {
    const bank = banks[journey] ?? '0177';
    const judged = driven ? ownFormStates(form, flow.id, bank, journey) : visitAnswers(form, { flowId: flow.id, applicationType, bank, visit });
    const entry = seen.get(form) ?? { schema: judged.schema, states: [] };
    entry.states.push(judged.states);
    seen.set(form, entry);
  }
  const ways: Array<{ name: string; covered: boolean; reason: string }> = [];
  for (const [form, { schema, states }] of seen) {
    for (const condition of conditionsOfForm(schema)) {
      const held = states.map((each) => conditionHeld(condition, each, schema));
      const name = `${form}.${condition.field} ${condition.keyword}`;
      ways.push({ name: `${name} holds`, covered: held.includes(true), reason: states.length < 2 ? 'the journeys visit the form once' : 'no journey\'s answers make it hold' });
      ways.push({ name: `${name} does not hold`, covered: held.includes(false), reason: states.length < 2 ? 'the journeys visit the form once' : 'no journey\'s answers make it fail' });
    }
  }
  return { ways: { total: ways.length, covered: ways.filter((way) => way.covered).length, uncovered: ways.filter((way) => !way.covered).map(({ name, reason }) => ({ name, reason })) } };
}
