/**
 * The application's revision (ADR 0030) travels in this header: GET /api/applications and every
 * stored step answer with it, and the page sends the one it holds with each step it posts.
 * Shared by the page and the server, so neither spells it alone.
 */
export const REVISION_HEADER = 'x-application-revision';

/** A revision as a header carries it: a whole number from 0, else undefined. */
export function parseRevision(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value)) return undefined;
  return Number(value);
}
