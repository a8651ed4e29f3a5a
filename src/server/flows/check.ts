/**
 * Reads the flow files from disk and lints them (src/flow-tools/lint). Used by
 * `npm run flows:check`, by the build, and by the server at start, so a broken flow never
 * reaches an applicant: the product owner gets file, line, JSON path and what is wrong.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { repositoryRoot } from '../paths.js';
import { flowSchemaOptions, formatProblem, lintFlows, type FlowProblem } from '../../flow-tools/lint';
import { flowUseOf, knownSourceValues } from '../../flow-tools/form-lint/context';
import { lintForms } from '../../flow-tools/form-lint';
import { describeFlow } from '../../domain/flow/model';
import type { FlowConfig, VersionedFlow } from '../../domain/flow/types';
import { COLUMN_ANSWER_NAMES } from '../forms/answers';
import { startSchemas, startValidator, type StartSchema } from '../start-validators';
import { validator } from '../validation';
import { checklistProblems } from './checklists';
import { versioned } from './version';

export { repositoryRoot };
const SCHEMA_FILE = 'flow.schema.json';
/** The flow schema's validator as the lint compiles it, made at build time (start-validators.ts). */
export const flowStartSchema: StartSchema = { name: 'flow', options: flowSchemaOptions };

export interface FlowCheckResult {
  problems: FlowProblem[];
  /** One line per checked flow: id, states and pages. */
  summary: string[];
  /** The checked flows, parsed (empty when there are problems). */
  flows: FlowConfig[];
  /** The same flows with their versions (version.ts). */
  versioned: VersionedFlow[];
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
export function checkFlowFiles(
  named: string[] = [],
  root = repositoryRoot,
  flowsDir = join(root, 'flows'),
  schemasDir = join(root, 'schemas'),
): FlowCheckResult {
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
  const flowProblems = lintFlows(files, schema, formNames, startValidator(flowStartSchema, schema));
  const problems = [
    ...flowProblems.filter((p) => selectedNames.has(p.file)),
    ...formProblems(root, schemasDir, formNames, flowProblems.length === 0 ? files.slice(0, selected.length) : undefined),
    ...checklistProblems(join(root, 'checklists')),
  ];
  const flows = problems.length > 0 ? [] : files.slice(0, selected.length).map((f) => JSON.parse(f.text) as FlowConfig);
  const versions = flows.map(versioned);
  const summary = versions.map(({ version, flow }) => {
    const model = describeFlow(flow);
    return `${model.id} (${Object.keys(model.config.states).length} states, ${model.pages.length} pages, version ${version.slice(0, 12)})`;
  });
  return { problems, summary, flows, versioned: versions };
}

/** The banks of BANKS_DIR (else the repository's banks/): their codes, and the purposes of use each offers. */
function banksOf(root: string): { codes: string[]; purposes: string[] } {
  const own = join(root, 'banks');
  const dir = process.env.BANKS_DIR?.trim() || (existsSync(own) ? own : join(repositoryRoot, 'banks'));
  const codes = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'bank.json'))).map((entry) => entry.name).sort();
  const purposes = codes.flatMap((code) => {
    const bank = JSON.parse(readFileSync(join(dir, code, 'bank.json'), 'utf8')) as { UTILIZATION_PURPOSE_LIST?: Array<{ value?: unknown }> };
    return (bank.UTILIZATION_PURPOSE_LIST ?? []).map((purpose) => String(purpose.value));
  });
  return { codes, purposes };
}

/**
 * What the form lint (src/flow-tools/form-lint) says of every form file of the folder, with the
 * product's form format (schemas/format/form.schema.json: an edited copy cannot loosen it) and,
 * once they pass their own lint, the flows that ask the forms.
 */
function formProblems(root: string, schemasDir: string, formNames: string[], flows: Array<{ fileName: string; text: string }> | undefined): FlowProblem[] {
  const metaSchema = JSON.parse(readFileSync(join(root, 'schemas', 'format', 'form.schema.json'), 'utf8')) as object;
  const banks = banksOf(root);
  return lintForms({
    files: formNames.map((name) => {
      const file = join(schemasDir, `${name}.schema.json`);
      return { name, fileName: display(file), text: readFileSync(file, 'utf8') };
    }),
    metaSchema,
    validate: startValidator(startSchemas.formFormat, metaSchema),
    flows: flows?.map((file) => flowUseOf(file.fileName, file.text, JSON.parse(file.text.replace(/^\uFEFF/, '')) as FlowConfig)),
    sourceValues: knownSourceValues(banks.purposes),
    bankCodes: banks.codes,
    columnNames: COLUMN_ANSWER_NAMES,
    compileProblem: (name) => {
      try {
        validator(`${name}.schema.json`, schemasDir);
        return undefined;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
  });
}

/** Throws one error listing every problem: the server refuses to start on a broken flow. */
export function assertFlowsValid(flowsDir = join(repositoryRoot, 'flows'), schemasDir = join(repositoryRoot, 'schemas')): FlowCheckResult {
  const result = checkFlowFiles([], repositoryRoot, flowsDir, schemasDir);
  if (result.problems.length > 0) {
    throw new Error(`the flow files are invalid:\n${result.problems.map(formatProblem).join('\n')}`);
  }
  return result;
}
