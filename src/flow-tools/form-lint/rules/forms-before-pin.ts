import { describeFlow, resolvedTransitions, topLevelOf, type FlowModel } from '../../../domain/flow/model';
import { PIN_SCREEN } from '../../../domain/flow/vocabulary';
import { formStepOf } from '../../../domain/forms/format';
import type { CatalogueRule } from '../rule';
import { askedForms } from '../context';

/** The top-level states reachable going forward (every transition but BACK) from the page that sets the PIN. */
function statesAfterPin(model: FlowModel): Set<string> {
  const next = new Map<string, string[]>();
  for (const { transition, target } of resolvedTransitions(model.root)) {
    const from = topLevelOf(transition.node).path[0];
    const to = topLevelOf(target).path[0];
    if (transition.event === 'BACK' || from === undefined || to === undefined || from === to) continue;
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const reached = new Set<string>();
  const queue = model.pages.filter((page) => page.screen === PIN_SCREEN).flatMap((page) => next.get(page.stateId) ?? []);
  for (let state = queue.shift(); state !== undefined; state = queue.shift()) {
    if (reached.has(state)) continue;
    reached.add(state);
    queue.push(...(next.get(state) ?? []));
  }
  return reached;
}

export const formsBeforePin: CatalogueRule = {
  name: 'forms-before-pin',
  description: 'A form step comes before the PIN page: once the PIN is set what was entered is final, so after it nothing could store the form.',
  stage: 'catalogue',
  check(context, report) {
    const afterPin = new Map((context.flows ?? []).map((flow) => [flow, statesAfterPin(describeFlow(flow.config))]));
    for (const { flow, page, name, form, pointer } of askedForms(context)) {
      if (afterPin.get(flow)?.has(page.stateId) && form && formStepOf(form.schema) !== undefined) {
        report(flow, pointer, `form "${name}" comes after the PIN page, when what was entered can no longer change; move the page before the PIN`);
      }
    }
  },
};
