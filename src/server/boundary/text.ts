/**
 * The one rule for all text that enters the server (JSON bodies, query strings, multipart
 * fields): control characters and lone UTF-16 surrogates are removed before any validation.
 *
 * Why strip rather than refuse: none of them can be typed on a phone keyboard or through an
 * IME, so they only arrive from a broken client or a hostile one, and no field of ours has a
 * use for them. PostgreSQL refuses NUL in text, kuromoji throws on it and a lone surrogate
 * cannot be encoded as UTF-8, so left in they turned into 500s deep inside a handler. After
 * stripping, the field's own schema decides (an emptied required field gets its message).
 *
 * Kept: TAB, LF and CR (the schemas of single-line fields refuse them with the field's
 * message; a textarea may hold a line break).
 */

// C0 controls other than TAB, LF, CR; DEL; C1 controls. A lone surrogate is a high surrogate
// not followed by a low one, or a low surrogate not preceded by a high one.
const UNWANTED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function cleanText(text: string): string {
  return text.replace(UNWANTED, '');
}

/**
 * Cleans every string in a parsed JSON value or query object, keys included, in place where
 * the value is an object or array; returns the cleaned value (a string is returned anew).
 */
export function cleanDeep(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) value[i] = cleanDeep(value[i]);
    return value;
  }
  if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const cleanKey = cleanText(key);
      const cleaned = cleanDeep(record[key]);
      if (cleanKey !== key) delete record[key];
      record[cleanKey] = cleaned;
    }
    return record;
  }
  return value;
}
