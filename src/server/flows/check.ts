/**
 * Reads the flow files from disk and lints them (src/flow-tools/lint). Used by
 * `npm run flows:check`, by the build, and by the server at start, so a broken flow never
 * reaches an applicant: the product owner gets file, line, JSON path and what is wrong.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { repositoryRoot } from '../paths.js';
import { flowSchemaOptions, formatProblem, lineOfPointer, lintFlows, suggestion, type FlowProblem } from '../../flow-tools/lint';
import { formStepOf, LOCAL_MESSAGES_KEYWORD, optionFieldsOf, storedEntityOf, type FormSchema } from '../../domain/schemas/form-step';
import { formStepProblems } from '../../domain/schemas/form-step-problems';
import { localMessageProblems, messageKeys, messageProblems } from '../../domain/schemas/messages';
import { describeFlow, resolvedTransitions, topLevelOf, type FlowModel } from '../../domain/flow/model';
import type { FlowConfig, VersionedFlow } from '../../domain/flow/types';
import { GENERIC_FORM_SCREEN, PIN_SCREEN } from '../../domain/flow/vocabulary';
import { COLUMN_ANSWER_NAMES } from '../forms/answers';
import { startValidator, type StartSchema } from '../start-validators';
import { validator } from '../validation';
import { checklistProblems } from './checklists';
import { formKeywordProblems } from './form-keywords';
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
  // Each schema file read once for every check below.
  const schemaFiles: SchemaFiles = new Map(formNames.map((name) => [name, readSchemaFile(join(schemasDir, `${name}.schema.json`))]));
  const problems = [
    ...lintFlows(files, schema, formNames, startValidator(flowStartSchema, schema)).filter((p) => selectedNames.has(p.file)),
    ...[...schemaFiles.values()].flatMap(schemaProblems),
    ...postPathProblems(schemaFiles),
    ...checklistProblems(join(root, 'checklists')),
  ];
  if (problems.length === 0) problems.push(...compileProblems(schemasDir, formNames));
  if (problems.length === 0) problems.push(...files.slice(0, selected.length).flatMap((file) => formPageProblems(file, schemaFiles)));
  const flows = problems.length > 0 ? [] : files.slice(0, selected.length).map((f) => JSON.parse(f.text) as FlowConfig);
  const versions = flows.map(versioned);
  const summary = versions.map(({ version, flow }) => {
    const model = describeFlow(flow);
    return `${model.id} (${Object.keys(model.config.states).length} states, ${model.pages.length} pages, version ${version.slice(0, 12)})`;
  });
  return { problems, summary, flows, versioned: versions };
}

/** A schema file's path, text and parsed JSON, or the problem of reading it. */
type SchemaFile = { file: string; text: string; schema: unknown } | FlowProblem;
type SchemaFiles = ReadonlyMap<string, SchemaFile>;

function readSchemaFile(file: string): SchemaFile {
  const text = readFileSync(file, 'utf8');
  try {
    return { file, text, schema: JSON.parse(text) as unknown };
  } catch (error) {
    return { file: display(file), pointer: '', line: 1, message: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/**
 * What is wrong in a form's schema, with file, line and a "Did you mean": message keys the
 * catalogue (src/domain/messages.ts) and the form's own x-messages do not have, own messages
 * that repeat the catalogue, and a form step's declaration (x-step: its post path and rule
 * names; x-options sources; ui:order). A form is part of the journey the lint vouches for.
 */
function schemaProblems(read: SchemaFile): FlowProblem[] {
  if ('message' in read) return [read];
  const { file, text, schema } = read;
  const fileName = basename(file);
  const id = (schema as { $id?: unknown }).$id;
  const own = (schema as Record<string, unknown>)[LOCAL_MESSAGES_KEYWORD];
  const names = [...messageKeys.map((key) => key.replace(/:N$/, '')), ...(typeof own === 'object' && own !== null ? Object.keys(own) : [])];
  const at = (pointer: string, message: string): FlowProblem => ({ file: display(file), pointer, line: lineOfPointer(text, pointer), message });
  return [
    ...messageProblems(schema).map((problem) => {
      const hint = problem.message.startsWith('unknown message') ? ` (known messages: ${messageKeys.join(', ')}).${suggestion(problem.reference, names)}` : '';
      return at(problem.pointer, `${problem.message}${hint}`);
    }),
    ...localMessageProblems(schema).map((problem) => at(problem.pointer, problem.message)),
    ...formStepProblems(schema as FormSchema).map((problem) =>
      at(problem.pointer, problem.unknown === undefined ? problem.message : `${problem.message}.${suggestion(problem.unknown.name, problem.unknown.known)}`),
    ),
    ...formKeywordProblems(schema).map((problem) => at(problem.pointer, problem.message)),
    ...(id === undefined || id === fileName ? [] : [at('/$id', `"$id" must be the file name "${fileName}" (forms are found by it), not ${JSON.stringify(id)}`)]),
  ];
}

/** What the server's strict ajv refuses in the schemas (it would refuse to start): the first schema it refuses. */
function compileProblems(schemasDir: string, formNames: string[]): FlowProblem[] {
  for (const name of formNames) {
    try {
      validator(`${name}.schema.json`, schemasDir);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return [{ file: display(join(schemasDir, `${name}.schema.json`)), pointer: '', line: 1, message: `the schema is not valid JSON Schema for the server (ajv, strict): ${message}` }];
    }
  }
  return [];
}

/** Two forms posted to one path: the second could never be reached. */
function postPathProblems(schemaFiles: SchemaFiles): FlowProblem[] {
  const seen = new Map<string, string>();
  const problems: FlowProblem[] = [];
  for (const name of [...schemaFiles.keys()].sort()) {
    const read = schemaFiles.get(name);
    if (!read || 'message' in read) continue;
    const file = read.file;
    const post = formStepOf(read.schema as FormSchema)?.post;
    if (post === undefined) continue;
    const first = seen.get(post);
    if (first === undefined) seen.set(post, name);
    else problems.push({ file: display(file), pointer: '/x-step/post', line: lineOfPointer(read.text, '/x-step/post'), message: `"${post}" is already the path of form "${first}"; give this form its own path` });
  }
  return problems;
}

/**
 * The top-level states reachable going forward (every transition but BACK, nested states'
 * included) from the page whose screen sets the PIN, as the domain's reader resolves them.
 */
function statesAfterPin(model: FlowModel): Set<string> {
  const next = new Map<string, string[]>();
  for (const { transition, target } of resolvedTransitions(model.root)) {
    const from = topLevelOf(transition.node).path[0];
    const to = topLevelOf(target).path[0];
    if (transition.event === 'BACK' || from === undefined || to === undefined || from === to) continue;
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const reached = new Set<string>();
  const queue = model.pages.filter((page) => page.screen === PIN_SCREEN).flatMap((page) => next.get(page.stateId) ?? []);
  for (let state = queue.shift(); state !== undefined; state = queue.shift()) {
    if (reached.has(state)) continue;
    reached.add(state);
    queue.push(...(next.get(state) ?? []));
  }
  return reached;
}

/**
 * What the pages of a (linted) flow ask of their forms: the generic screen renders only a form
 * with "x-step"; a form of the engine comes before the PIN (its answers are final once the PIN
 * is set, so after it nothing could store them); the forms it comes after (x-step.after) are
 * asked before it; and its fields and labelAs names are its own in the record it is stored
 * into, not another form's nor a column's (GET /api/applications merges the forms of one
 * record: the applicant's application, or the one of x-step.storedAs, whose forms are compared
 * with each other only).
 */
function formPageProblems(file: { path: string; fileName: string; text: string }, schemaFiles: SchemaFiles): FlowProblem[] {
  const flow = JSON.parse(file.text) as FlowConfig;
  const problems: FlowProblem[] = [];
  const at = (pointer: string, message: string): FlowProblem => ({ file: file.fileName, pointer, line: lineOfPointer(file.text, pointer), message });
  const model = describeFlow(flow);
  const pages = model.pages;
  const afterPin = statesAfterPin(model);
  // Per record: field name → the form (or the columns) that has it.
  const owners = new Map<string, Map<string, string>>([['application', new Map(COLUMN_ANSWER_NAMES.map((name) => [name, 'the stored application*']))]]);
  const askedBefore = new Set<string>();
  for (const page of pages) {
    for (const [index, form] of page.forms.entries()) {
      const read = schemaFiles.get(form);
      if (!read || 'message' in read) continue;
      const schema = read.schema as FormSchema;
      const step = formStepOf(schema);
      const generic = step !== undefined;
      const pointer = `/states/${page.stateId}/meta/form${page.forms.length > 1 ? `/${index}` : ''}`;
      if (page.screen === GENERIC_FORM_SCREEN && !generic) {
        problems.push(at(pointer, `screen "${GENERIC_FORM_SCREEN}" needs a form with "x-step" (where it is posted), but schemas/${form}.schema.json has none`));
      }
      if (generic && afterPin.has(page.stateId)) {
        problems.push(at(pointer, `form "${form}" comes after the PIN page, when what was entered can no longer change; move the page before the PIN`));
      }
      for (const earlier of step?.after ?? []) {
        if (!askedBefore.has(earlier)) {
          problems.push(at(pointer, `form "${form}" comes after form "${earlier}" (x-step.after), which this flow does not ask before it; ask it on an earlier page, or drop it from "after"`));
        }
      }
      askedBefore.add(form);
      const entity = storedEntityOf(schema);
      const record = owners.get(entity) ?? new Map<string, string>();
      owners.set(entity, record);
      const labels = optionFieldsOf(schema).flatMap(({ options }) => (options.labelAs === undefined ? [] : [options.labelAs]));
      for (const field of [...Object.keys(schema.properties ?? {}), ...labels]) {
        const owner = record.get(field);
        if (owner === undefined) record.set(field, `form "${form}"${generic ? '' : '*'}`);
        else if (generic) {
          problems.push(at(pointer, `form "${form}" has a field "${field}", which ${owner.replace(/\*$/, '')} of this flow has too; rename one (the answers of a flow share one record)`));
        }
      }
    }
  }
  return problems;
}

/** Throws one error listing every problem: the server refuses to start on a broken flow. */
export function assertFlowsValid(flowsDir = join(repositoryRoot, 'flows'), schemasDir = join(repositoryRoot, 'schemas')): FlowCheckResult {
  const result = checkFlowFiles([], repositoryRoot, flowsDir, schemasDir);
  if (result.problems.length > 0) {
    throw new Error(`the flow files are invalid:\n${result.problems.map(formatProblem).join('\n')}`);
  }
  return result;
}
