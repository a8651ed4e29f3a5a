import { formsOf } from '../../src/domain/flow/model';
import { GENERIC_FORM_SCREEN } from '../../src/domain/flow/vocabulary';
import { formFor } from '../../src/domain/forms/flow-forms';
import { conditionHeld, conditionsOfForm, sampleAnswers, variantOfVisit } from '../../src/flow-tools/samples';
import { formSchemaOf, sampleContextOf } from '../e2e/drivers/generic-form';
import { FORMS_WITH_DRIVER } from '../e2e/drivers/own-forms';
import type { PlannedPath } from './plan';
import { topLevelStateOf, transitionTaken, type TestFlow } from './test-machine';
import type { CoverageCount } from './plan';

/**
 * The visits of the form steps along a flow's planned journeys, and what they cover of the forms'
 * conditions. A form without a driver of its own is answered from its schema (generic-form.ts),
 * its n-th visit across the journeys (in the plan's order) taking the variant of samples.ts:
 * the first visit asks what its conditions can ask, the next skips it, and so on. So each
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

export function formVisitsOf(testFlow: TestFlow, paths: readonly PlannedPath[]): FormVisits {
  const counts = new Map<string, number>();
  const visits = new Map<string, number>();
  paths.forEach((path, pathIndex) => {
    path.steps.forEach((_step, stepIndex) => {
      // A page of several forms is one visit of each; its first form's count numbers it.
      submittedForms(testFlow, path, stepIndex).forEach((form, index) => {
        const visit = counts.get(form) ?? 0;
        counts.set(form, visit + 1);
        if (index === 0) visits.set(visitKey(pathIndex, stepIndex), visit);
      });
    });
  });
  return visits;
}

const ownDriver = new Set<string>(FORMS_WITH_DRIVER);

/** How many times the journeys submit each form, and whether a driver of its own answers it (its page's first form's). */
function visitCounts(testFlow: TestFlow, paths: readonly PlannedPath[]): Map<string, { count: number; driven: boolean }> {
  const counts = new Map<string, { count: number; driven: boolean }>();
  paths.forEach((path) => path.steps.forEach((_step, index) => {
    const forms = submittedForms(testFlow, path, index);
    const driven = forms[0] !== undefined && ownDriver.has(forms[0]);
    for (const form of forms) counts.set(form, { count: (counts.get(form)?.count ?? 0) + 1, driven });
  }));
  return counts;
}

export interface ConditionCoverage {
  /** Each condition of each form answered from its schema, both ways: "<form>.<field> <keyword> holds" and "… does not hold". */
  ways: CoverageCount;
  /** The conditions of the forms answered by drivers of their own, which the journeys do not vary. */
  byDrivers: string[];
}

/** What the journeys cover of the forms' conditions; the samples read the settings of `bank`. */
export function conditionCoverage(testFlow: TestFlow, paths: readonly PlannedPath[], bank = '0177'): ConditionCoverage {
  const { flow } = testFlow;
  const applicationType = flow.meta.applicationType;
  const ways: Array<{ name: string; covered: boolean; reason: string }> = [];
  const byDrivers: string[] = [];
  for (const [form, { count, driven }] of visitCounts(testFlow, paths)) {
    const schema = formFor(formSchemaOf(form), flow.id);
    const conditions = conditionsOfForm(schema);
    if (driven) {
      for (const { field, keyword } of conditions) byDrivers.push(`${form}.${field} ${keyword}`);
      continue;
    }
    const seen = Array.from({ length: count }, (_, visit) => sampleAnswers(schema, variantOfVisit(visit), sampleContextOf(bank, applicationType)).states);
    for (const condition of conditions) {
      const held = seen.map((states) => conditionHeld(condition, states, schema));
      const name = `${form}.${condition.field} ${condition.keyword}`;
      ways.push({ name: `${name} holds`, covered: held.includes(true), reason: count < 2 ? 'the journeys visit the form once' : 'no sample answers make it hold' });
      ways.push({ name: `${name} does not hold`, covered: held.includes(false), reason: count < 2 ? 'the journeys visit the form once' : 'no sample answers make it fail' });
    }
  }
  return {
    ways: { total: ways.length, covered: ways.filter((way) => way.covered).length, uncovered: ways.filter((way) => !way.covered).map(({ name, reason }) => ({ name, reason })) },
    byDrivers,
  };
}
