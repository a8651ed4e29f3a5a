/** The wording the lint's rules share: lists of allowed values and "Did you mean". */
import editDistance from 'damerau-levenshtein';

export function quoteList(values: Iterable<string>): string {
  return [...values].join(', ');
}

/** Edits between two names, case aside; a swap of two neighbouring letters ("trem" for "term") counts as one. */
function distance(a: string, b: string): number {
  return editDistance(a.toLowerCase(), b.toLowerCase()).steps;
}

/** ` Did you mean "x"?` when one allowed value is a near miss (a few letters off, or cut short), else "". */
export function suggestion(value: string, allowed: Iterable<string>): string {
  let best: string | undefined;
  let bestDistance = Infinity;
  const limit = Math.max(1, Math.min(3, Math.floor(value.length / 3)));
  for (const candidate of allowed) {
    if (candidate === value) continue;
    const d = distance(value, candidate);
    const cutShort = value.length >= 4 && candidate.toLowerCase().startsWith(value.toLowerCase());
    if ((d <= limit || cutShort) && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined ? ` Did you mean "${best}"?` : '';
}

/** `<what> (<label>: a, b, c).` followed by a suggestion for `value` when there is one. */
export function withChoices(what: string, value: string, label: string, allowed: Iterable<string>): string {
  const list = [...allowed];
  return `${what} (${label}: ${list.length > 0 ? quoteList(list) : 'none'}).${suggestion(value, list)}`;
}

export function unknownName(kind: string, value: string, allowed: readonly string[]): string {
  return withChoices(`unknown ${kind} "${value}"`, value, `known ${kind}s`, allowed);
}
