/** One choice of a widget whose options come from master data (`ui:options.choices`). */
export interface Choice {
  value: string | number | boolean;
  label: string;
  /** A second line under the label (e.g. a branch's address). */
  description?: string;
  /** What the rules read of the choice (an occupation's workplaceRequired). */
  data?: Readonly<Record<string, unknown>>;
}

function isChoice(item: unknown): item is Choice {
  if (!item || typeof item !== 'object') return false;
  const { value, label } = item as Record<string, unknown>;
  return ['string', 'number', 'boolean'].includes(typeof value) && typeof label === 'string';
}

/** `ui:options` values are untyped in rjsf; this keeps only well-formed choices. */
export function choicesOf(option: unknown): Choice[] {
  return Array.isArray(option) ? option.filter(isChoice) : [];
}
