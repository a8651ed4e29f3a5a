/**
 * The flow lint: refuses a bad flow file (flows/*.json) with a precise message a product owner
 * can act on: file, line, JSON pointer, the offending value and the allowed ones.
 *
 * Pure on purpose (no fs, no node APIs): the caller passes the file text, the flow schema and
 * the form names, so that the same check runs in the CLI (npm run flows:check), the build, the
 * server's start and tests.
 *
 * Order of work: the text is read with positions (./source.ts, jsonc-parser); a syntax error is
 * the one message. Then the rules of ./rules/index.ts run in their order: the source rules (keys
 * written twice, flows/flow.schema.json), and only on a file they pass, the meaning rules on the
 * flow as the domain's one reader (src/domain/flow/model.ts) reads it.
 */
import type { ValidateFunction } from 'ajv';
import { isObject, type Json } from '../../domain/flow/model';
import { flowContext } from './context';
import type { FlowProblem } from './problem';
import { flowLintRules } from './rules';
import { lineOfPointer, readSource } from './source';

export type { FlowProblem } from './problem';
export { formatProblem } from './problem';
export { suggestion } from './words';
export { flowSchemaOptions } from './rules/flow-schema';
export { lineOfPointer };

export interface LintInput {
  fileName: string;
  text: string;
  /** Parsed flows/flow.schema.json. */
  schema: object;
  /** A validator of `schema` made elsewhere (the server's, compiled at build time); else compiled here. */
  validate?: ValidateFunction;
  /** Allowed meta.form values (schemas/<name>.schema.json base names). */
  formNames: string[];
  /** Paths of the pages of the other flows; enables the cross-flow checks when given. */
  otherFlowPaths?: string[];
}

export function lintFlow(input: LintInput): FlowProblem[] {
  const { fileName, text, schema, validate, formNames, otherFlowPaths } = input;
  const source = readSource(text);
  if (!('lineOf' in source)) {
    const { pointer, line, column, message } = source;
    return [{ file: fileName, pointer, line, message: `invalid JSON at line ${line} column ${column}: ${message}` }];
  }
  const problems: FlowProblem[] = [];
  const report = (pointer: string, message: string, line = source.lineOf(pointer)) => {
    problems.push({ file: fileName, pointer, line, message });
  };
  for (const rule of flowLintRules) if (rule.stage === 'source') rule.check({ source, schema, validate }, report);
  if (problems.length === 0) {
    // The schema guarantees the shape from here on.
    const flow = flowContext(source.value as Json, { formNames, otherFlowPaths, lineOf: source.lineOf });
    for (const rule of flowLintRules) if (rule.stage === 'meaning') rule.check(flow, report);
  }
  return problems.sort((a, b) => a.line - b.line || a.pointer.localeCompare(b.pointer));
}

/** Paths of the top-level pages of a flow text, for the cross-flow checks; [] when it does not parse. */
export function flowPathsOf(text: string): string[] {
  return readFlowPaths(text) ?? [];
}

function readFlowPaths(text: string): string[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || !isObject(value.states)) return [];
  const paths: string[] = [];
  for (const state of Object.values(value.states)) {
    if (isObject(state) && isObject(state.meta) && typeof state.meta.path === 'string') paths.push(state.meta.path);
  }
  return paths;
}

/**
 * Lints several flows together: each one is checked against the pages of the others, flow ids
 * must differ, and so must their application types (an applicant starts one by its type: two
 * flows of one type would leave one unreachable).
 */
export function lintFlows(files: Array<{ fileName: string; text: string }>, schema: object, formNames: string[], validate?: ValidateFunction): FlowProblem[] {
  const paths = files.map((f) => readFlowPaths(f.text));
  const problems: FlowProblem[] = [];
  const ids = new Map<string, string>();
  const types = new Map<string, string>();
  files.forEach((file, index) => {
    // While another file is not even JSON its pages are unknown: the cross-flow checks wait for it.
    const others = paths.filter((_, j) => j !== index);
    const otherFlowPaths = others.every((p) => p !== undefined) ? others.flat() : undefined;
    const own = lintFlow({ fileName: file.fileName, text: file.text, schema, validate, formNames, otherFlowPaths });
    problems.push(...own);
    if (own.length > 0) return;
    const parsed = JSON.parse(file.text.replace(/^\uFEFF/, '')) as Json;
    const id = String(parsed.id);
    const first = ids.get(id);
    if (first !== undefined) {
      problems.push({ file: file.fileName, pointer: '/id', line: lineOfPointer(file.text, '/id'), message: `flow id "${id}" is already used by ${first}; each flow needs its own id` });
    } else ids.set(id, file.fileName);
    const type = String((parsed.meta as Json).applicationType);
    const typed = types.get(type);
    if (typed !== undefined) {
      const message = `meta.applicationType "${type}" is already the type of ${typed}: an applicant starts a flow by its type, so two flows of one type would leave one unreachable; a new application type needs a developer (src/domain/flow/types.ts and the server's rules by type)`;
      problems.push({ file: file.fileName, pointer: '/meta/applicationType', line: lineOfPointer(file.text, '/meta/applicationType'), message });
    } else types.set(type, file.fileName);
  });
  return problems;
}
