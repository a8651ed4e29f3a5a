import { JAPAN_OFFSET_MS } from '../domain/rules/dates.js';

/** ISO 8601 in Japan time, e.g. 2026-12-01T00:00:00+09:00, as the API answers times. */
export function toJstIso(date: Date): string {
  return `${new Date(date.getTime() + JAPAN_OFFSET_MS).toISOString().slice(0, 19)}+09:00`;
}

/**
 * Parses an operator-typed time: ISO 8601 with an offset (2026-12-01T00:00+09:00 or …Z), or
 * without one, then read as Japan time. Returns null when it is not such a time.
 */
export function parseOperatorTime(text: string): Date | null {
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?))?(Z|[+-]\d{2}:?\d{2})?$/.exec(text.trim());
  if (!match) return null;
  const [, day, time = '00:00', zone = '+09:00'] = match;
  const date = new Date(`${day}T${time}${zone}`);
  return Number.isNaN(date.getTime()) ? null : date;
}
