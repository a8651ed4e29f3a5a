/**
 * Reads the flow files from disk and lints them (src/domain/flow/lint.ts). Used by
 * `npm run flows:check`, by the build, and by the server at start, so a broken flow never
 * reaches an applicant: the product owner gets file, line, JSON path and what is wrong.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatProblem, lineOfPointer, lintFlows, suggestion, type FlowProblem } from '../../domain/flow/lint';
import { messageKeys, messageProblems } from '../../domain/schemas/messages';
import { describeFlow } from '../../domain/flow/model';
import type { FlowConfig } from '../../domain/flow/types';

export const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
const SCHEMA_FILE = 'flow.schema.json';

export interface FlowCheckResult {
  problems: FlowProblem[];
  /** One line per checked flow: id, states and pages. */
  summary: string[];
  /** The checked flows, parsed (empty when there are problems). */
  flows: FlowConfig[];
}

function display(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel.startsWith('..') ? file : rel;
}

export function shippedFlowFiles(flowsDir = join(repositoryRoot, 'flows')): string[] {
  return readdirSync(flowsDir)
    .filter((f) => f.endsWith('.json') && f !== SCHEMA_FILE)
    .sort()
    .map((f) => join(flowsDir, f));
}

/**
 * Lints the named files (default: every shipped flow). Named files are checked together with
 * the shipped flows (for the cross-flow checks); a named file replaces its shipped namesake.
 */
export function checkFlowFiles(named: string[] = [], root = repositoryRoot, flowsDir = join(root, 'flows')): FlowCheckResult {
  const schemasDir = join(root, 'schemas');
  const shipped = shippedFlowFiles(flowsDir);
  const selected = named.length > 0 ? named.map((f) => resolve(f)) : shipped;
  for (const file of selected) if (!existsSync(file)) throw new Error(`${display(file)}: no such file`);
  const all = [...selected, ...shipped.filter((s) => !selected.some((n) => basename(n) === basename(s)))];
  const files = all.map((file) => ({ path: file, fileName: display(file), text: readFileSync(file, 'utf8').replace(/^\uFEFF/, '') }));
  // The schema is the product's, not the copy's: an edited folder cannot loosen it.
  const schema = JSON.parse(readFileSync(join(root, 'flows', SCHEMA_FILE), 'utf8')) as object;

  // Form names: schemas/<name>.schema.json; any other name is an error of the lint.
  const formNames = existsSync(schemasDir)
    ? readdirSync(schemasDir)
        .filter((f) => f.endsWith('.schema.json'))
        .map((f) => f.slice(0, -'.schema.json'.length))
    : [];

  const selectedNames = new Set(files.slice(0, selected.length).map((f) => f.fileName));
  const problems = [
    ...lintFlows(files, schema, formNames).filter((p) => selectedNames.has(p.file)),
    ...formNames.flatMap((name) => schemaMessageProblems(join(schemasDir, `${name}.schema.json`))),
  ];
  const flows = problems.length > 0 ? [] : files.slice(0, selected.length).map((f) => JSON.parse(f.text) as FlowConfig);
  const summary = flows.map((flow) => {
    const model = describeFlow(flow);
    return `${model.id} (${Object.keys(model.config.states).length} states, ${model.pages.length} pages)`;
  });
  return { problems, summary, flows };
}

/**
 * The message keys a form's schema names that the catalogue (src/domain/messages.ts) does not
 * have, with file, line and a "Did you mean": a form is part of the journey the lint vouches for.
 */
function schemaMessageProblems(file: string): FlowProblem[] {
  const text = readFileSync(file, 'utf8');
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    return [{ file: display(file), pointer: '', line: 1, message: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` }];
  }
  const names = messageKeys.map((key) => key.replace(/:N$/, ''));
  return messageProblems(schema).map((problem) => {
    const hint = problem.message.startsWith('unknown message') ? ` (known messages: ${messageKeys.join(', ')}).${suggestion(problem.reference, names)}` : '';
    return { file: display(file), pointer: problem.pointer, line: lineOfPointer(text, problem.pointer), message: `${problem.message}${hint}` };
  });
}

/** Throws one error listing every problem: the server refuses to start on a broken flow. */
export function assertFlowsValid(flowsDir = join(repositoryRoot, 'flows')): FlowCheckResult {
  const result = checkFlowFiles([], repositoryRoot, flowsDir);
  if (result.problems.length > 0) {
    throw new Error(`the flow files are invalid:\n${result.problems.map(formatProblem).join('\n')}`);
  }
  return result;
}
