import { FLOWS_KEYWORD, isRecord, type FormSchema } from './format';

/**
 * A form as one flow asks it: the schema with its overlay for that flow (`x-flows.<flow id>`)
 * laid over it, objects merged key by key, a text, a number or a list replaced. The overlay
 * holds the same keywords as the form (its meta-schema says which: texts and summary of
 * x-step, x-ui, the conditions of a field), so a difference between flows is written once,
 * where it is, and read by every reader from here. What is accepted (the validation keywords)
 * is the same in every flow: the page's precompiled validator and the server's are one schema's.
 */

/** `over` laid on `base`: objects merged key by key, anything else replaced (a copy). */
export function overlaid(base: unknown, over: unknown): unknown {
  if (!isRecord(base) || !isRecord(over)) return over;
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) result[key] = overlaid(base[key], value);
  return result;
}

/** The flows a form has an overlay for, by id. */
export function overlaysOf(schema: FormSchema): Record<string, unknown> {
  const raw = schema[FLOWS_KEYWORD];
  return isRecord(raw) ? raw : {};
}

const byFlow = new WeakMap<FormSchema, Map<string, FormSchema>>();

/** The form as the flow `flowId` asks it (the same object for the same schema and flow). */
export function formFor(schema: FormSchema, flowId: string): FormSchema {
  let forms = byFlow.get(schema);
  if (!forms) byFlow.set(schema, (forms = new Map()));
  let form = forms.get(flowId);
  if (!form) {
    const { [FLOWS_KEYWORD]: overlays, ...base } = schema;
    const overlay = isRecord(overlays) ? overlays[flowId] : undefined;
    form = (overlay === undefined ? base : overlaid(base, overlay)) as FormSchema;
    forms.set(flowId, form);
  }
  return form;
}
