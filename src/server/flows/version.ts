import { createHash } from 'node:crypto';
import type { FlowConfig, VersionedFlow } from '../../domain/flow/types.js';

/**
 * The version of a flow: a SHA-256 (hex) of its canonical JSON, i.e. of what it means, not of
 * how the file is laid out. Keys are sorted at every level (XState reads an object's keys by
 * name), while arrays keep their order (a list of guarded transitions is tried in order), so
 * re-indenting or reordering keys keeps the version and any other edit makes a new one.
 * The one place a version is computed: the flow loader (check.ts) calls it for every linted
 * flow, the server stores it with each new application, the page receives it with the flows.
 */
export function flowVersionOf(flow: FlowConfig): string {
  return createHash('sha256').update(canonicalJson(flow)).digest('hex');
}

/** JSON with the keys of every object sorted; undefined members are left out, as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) =>
    member && typeof member === 'object' && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : member,
  );
}

/** Whether a value is written as a version is (a hex SHA-256). */
export function isFlowVersion(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}

export function versioned(flow: FlowConfig): VersionedFlow {
  return { version: flowVersionOf(flow), flow };
}
