import { describeFlow } from '../../domain/flow/model.js';
import { PIN_SCREEN } from '../../domain/flow/vocabulary.js';
import type { FlowConfig } from '../../domain/flow/types.js';
import type { FormCatalogue } from './catalogue.js';

/**
 * Which forms an application must have stored before it is handed to the bank: every form
 * its flow asks before the PIN (the flow decides, so a step moved, removed or added in the
 * flow JSON changes what completion waits for), and how to tell that each one is stored: a
 * form of the generic engine by its document (the child's parent page by both of its forms'),
 * the confirmation tick by nothing (it stores nothing).
 */

/** What the stored-checks read of an application. */
export interface StoredFacts {
  /** The forms whose document is stored (the generic engine's). */
  documents: ReadonlySet<string>;
}

/** The forms without x-step that a flow may ask before the PIN. The PIN has its own check. */
const columnChecks: Record<string, (facts: StoredFacts) => boolean> = {
  // Stores nothing: its tick is asked again on the page.
  confirmation: () => true,
};

/** Whether `form` is stored, for a form of the engine (x-step) or one of columnChecks. */
function storedCheckOf(form: string, catalogue: FormCatalogue): ((facts: StoredFacts) => boolean) | undefined {
  if (catalogue.get(form)?.step !== undefined) return (facts) => facts.documents.has(form);
  return Object.hasOwn(columnChecks, form) ? columnChecks[form] : undefined;
}

/**
 * The forms a flow asks, but the PIN's, in page order; throws for a form the server cannot
 * store. (The flow lint refuses a form step after the PIN page, which nothing could store.)
 */
export function requiredFormsOf(flow: FlowConfig, catalogue: FormCatalogue): string[] {
  const forms = describeFlow(flow)
    .pages.filter((page) => page.screen !== PIN_SCREEN)
    .flatMap((page) => page.forms);
  const unknown = forms.filter((form) => storedCheckOf(form, catalogue) === undefined);
  if (unknown.length > 0) {
    throw new Error(
      `flow "${flow.id}" asks the form(s) ${unknown.join(', ')}, which the server cannot store: give the schema an "x-step" (schemas/<form>.schema.json)`,
    );
  }
  return forms;
}

/** The forms of `required` whose answers are not stored. */
export function missingForms(required: readonly string[], facts: StoredFacts, catalogue: FormCatalogue): string[] {
  return required.filter((form) => !storedCheckOf(form, catalogue)?.(facts));
}
