import type { ApplicationTypeName } from '../../../domain/forms/format';
import type { FieldError } from '../../../domain/rules/field-error';
import type { FormData } from '../context';

/** What a widget's behaviour is told when the page opens. */
export interface Opening {
  field: string;
  /** The field's ui:options (e.g. which code a CodeApplyWidget applies). */
  options: Record<string, unknown>;
  applicationType: ApplicationTypeName;
  /** The form has stored answers: the applicant is coming back to the step. */
  stored: boolean;
}

/**
 * What a widget that keeps state beside its answer (pageState.ts) adds to the form step, besides
 * drawing: how its state starts when the page opens (it may ask the server, e.g. a code from the
 * landing URL applied once) and what blocks 次へ that neither the schema nor the rules can see
 * (a code typed and not applied). Registered by widget name (widgets/index.ts).
 */
export interface WidgetBehaviour {
  /** The widget asks a question of its own that must be answered, though its field may stay empty (the existing account's yes/no): marked 必須. */
  asksRequiredQuestion?: boolean;
  open?: (data: FormData, opening: Opening) => Promise<FormData | null>;
  check?: (field: string, data: FormData, options: Record<string, unknown>) => FieldError[];
}
