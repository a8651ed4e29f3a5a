import type { RJSFSchema } from '@rjsf/utils';
import { NORMALIZE_KEYWORD } from '../../../domain/forms/format';

/** A limit at or under this many characters gets a counter under its field: the applicant sees how much room is left. */
export const COUNTED_LIMIT = 50;

/**
 * What a text field's schema maxLength gives its control: the input's maxlength (only where the
 * text is stored as typed: a field with an x-normalize is rewritten first, so what is typed may
 * be longer than what is kept, e.g. a postal code pasted with 〒), and a counter for a short limit.
 * Lengths count characters as the schema does (code points: 𠮷 is one).
 */
export function textLimitOf(schema: RJSFSchema | undefined): { maxLength: number | undefined; counted: number | undefined } {
  if (!schema) return { maxLength: undefined, counted: undefined };
  const limit = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  if (limit === undefined || (schema as Record<string, unknown>)[NORMALIZE_KEYWORD] !== undefined) return { maxLength: undefined, counted: undefined };
  return { maxLength: limit, counted: limit <= COUNTED_LIMIT ? limit : undefined };
}

/**
 * 「12／30文字」 under a field with a short limit. Not announced at each key, nor part of the
 * field's description (the error and the hint are): the input's maxlength tells a screen reader
 * the limit, and the counter is there to read.
 */
export function LengthCounter({ id, value, limit }: { id: string; value: unknown; limit: number }) {
  const used = typeof value === 'string' ? [...value].length : 0;
  return (
    <p className={`field__counter${used > limit ? ' field__counter--over' : ''}`} id={`${id}__counter`}>
      {used}／{limit}文字
    </p>
  );
}
