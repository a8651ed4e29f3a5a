/**
 * The flow lint: refuses a bad flow file (flows/*.json) with a precise message a product owner
 * can act on: file, line, JSON pointer, the offending value and the allowed ones.
 *
 * Pure on purpose (no fs, no node APIs): the caller passes the file text, the flow schema and
 * the form names, so that the same check runs in the CLI (npm run flows:check), in tests and
 * anywhere else.
 *
 * Order of work: the text is parsed by a small JSON reader that also records the line of every
 * key (JSON.parse gives neither lines nor duplicate keys); then the schema (flows/flow.schema.json)
 * checks the shape. Only a well-formed, schema-valid flow goes on to the meaning checks, so a
 * typo gives one message instead of a cascade. The meaning checks, in order:
 *   - names: screens, forms, guards, actions, actors, events from the vocabulary; actor inputs;
 *   - page metadata, paths unique across flows, exits into another flow;
 *   - targets and initial states exist (until they do, the graph checks below wait);
 *   - every state is reachable from the start, an entry page (meta.entry) or the error page;
 *   - no dead ends: every non-final state has a way out and some way on to a final state or to
 *     the identity provider (a state entered with "leaveForProvider" is where the browser leaves
 *     the app; the applicant comes back on the entry page that polls the result);
 *   - step counters: 1 first, never lower along the forward path, the largest is totalSteps;
 *   - a way back (BACK) on step pages, as the spec's navigation pairs have it.
 * The tree itself is read by ./statechart.ts, shared with the diagram (./diagram.ts).
 */
import Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import {
  allNodes,
  buildTree,
  invokesOf,
  isObject,
  isPage,
  metaOf,
  nodeTransitions,
  refsOf,
  resolveTarget,
  stepOf,
  stringMeta,
  topLevelOf,
  type Json,
  type StateNode,
  type Transition,
} from '../../domain/flow/model';
import { escapePointerSegment } from '../../domain/json-pointer';
import { enteredLeaves, handOverStates, providerReturnPages } from '../statechart';
import { actionNames, actorNames, eventTypes, guardNames, HAND_OVER_ACTION, isOneOf, formScreenNames, PROVIDER_RETURN_ACTOR, screenNames, type ActorName } from '../../domain/flow/vocabulary';

export { escapePointerSegment };

export interface FlowProblem {
  /** As given by the caller, e.g. "flows/general.json". */
  file: string;
  /** JSON pointer (RFC 6901) of the offending value; "" for the whole file. */
  pointer: string;
  /** 1-based line of the offending key (or value) in the file text. */
  line: number;
  message: string;
}

export interface LintInput {
  fileName: string;
  text: string;
  /** Parsed flows/flow.schema.json. */
  schema: object;
  /** Allowed meta.form values (schemas/<name>.schema.json base names). */
  formNames: string[];
  /** Paths of the pages of the other flows; enables the cross-flow checks when given. */
  otherFlowPaths?: string[];
}

/** `flows/general.json:42 /states/personal/on/NEXT: transition target "workplce" does not exist (...)` */
export function formatProblem(p: FlowProblem): string {
  return p.pointer === '' ? `${p.file}:${p.line}: ${p.message}` : `${p.file}:${p.line} ${p.pointer}: ${p.message}`;
}

// ---------------------------------------------------------------------------------------------
// JSON reading with locations
// ---------------------------------------------------------------------------------------------

interface JsonSource {
  value: unknown;
  /** JSON pointer -> 1-based line of its key (object member) or of its value (array element, root). */
  lines: Map<string, number>;
  duplicates: Array<{ pointer: string; key: string; line: number; firstLine: number }>;
}

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    readonly pointer: string,
  ) {
    super(message);
  }
}


function pointerOf(segments: ReadonlyArray<string | number>): string {
  return segments.map((s) => `/${escapePointerSegment(String(s))}`).join('');
}

/** 1-based line and column of an offset. */
function lineColumn(lineStarts: number[], offset: number): { line: number; column: number } {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((lineStarts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - (lineStarts[lo] ?? 0) + 1 };
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function describeChar(ch: string | undefined): string {
  if (ch === undefined) return 'end of file';
  if (ch === '\n' || ch === '\r') return 'line break';
  return JSON.stringify(ch);
}

/**
 * A strict JSON reader (RFC 8259, same result as JSON.parse) that also records where each
 * key is and which keys are written twice. Throws JsonSyntaxError with the offset and the
 * pointer of the value being read.
 */
function readJson(text: string, lineStarts: number[]): JsonSource {
  const lines = new Map<string, number>();
  const duplicates: JsonSource['duplicates'] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const lineAt = (offset: number) => lineColumn(lineStarts, offset).line;

  const fail = (message: string, at: number, path: ReadonlyArray<string | number>): never => {
    throw new JsonSyntaxError(message, at, pointerOf(path));
  };

  const skipSpace = (path: ReadonlyArray<string | number>) => {
    for (;;) {
      const ch = text[i];
      if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') i++;
      else if (ch === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) fail('comments are not allowed in JSON', i, path);
      else return;
    }
  };

  const readString = (path: ReadonlyArray<string | number>): string => {
    const start = i;
    i++; // opening quote
    for (;;) {
      const ch = text[i];
      if (ch === undefined) fail('unterminated string (missing closing ")', start, path);
      if (ch === '"') break;
      if (ch === '\\') {
        const esc = text[i + 1];
        if (esc === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('invalid \\u escape in string', i, path);
          i += 6;
        } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i += 2;
        else fail(`invalid escape "\\${esc ?? ''}" in string`, i, path);
      } else if ((ch as string).charCodeAt(0) < 0x20) {
        fail('line break or control character inside a string (missing closing "?)', i, path);
      } else i++;
    }
    i++; // closing quote
    return JSON.parse(text.slice(start, i)) as string;
  };

  const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

  const readValue = (path: Array<string | number>): unknown => {
    skipSpace(path);
    const ch = text[i];
    if (ch === '{') return readObject(path);
    if (ch === '[') return readArray(path);
    if (ch === '"') return readString(path);
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) {
      numberPattern.lastIndex = i;
      const m = numberPattern.exec(text);
      if (!m) return fail(`invalid number`, i, path);
      i += m[0].length;
      return Number(m[0]);
    }
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return value;
      }
    }
    if (ch === "'") return fail('strings must be written in double quotes ("), not single quotes', i, path);
    if (ch === ',' || ch === '}' || ch === ']') return fail(`expected a value but found ${describeChar(ch)}`, i, path);
    return fail(`expected a value but found ${describeChar(ch)}${ch === undefined ? '' : ' (text must be in double quotes)'}`, i, path);
  };

  const readObject = (path: Array<string | number>): Record<string, unknown> => {
    i++; // {
    const entries: Array<[string, unknown]> = [];
    const seen = new Map<string, number>();
    let comma = -1;
    skipSpace(path);
    if (text[i] === '}') {
      i++;
      return {};
    }
    for (;;) {
      skipSpace(path);
      const ch = text[i];
      if (ch !== '"') {
        if (ch === '}' && entries.length > 0) fail('trailing comma before "}" (remove the last ",")', comma, path);
        fail(
          ch === "'" || (ch !== undefined && /[A-Za-z_$]/.test(ch))
            ? 'object keys must be written in double quotes (")'
            : `expected a key in double quotes but found ${describeChar(ch)}`,
          i,
          path,
        );
      }
      const keyAt = i;
      const key = readString(path);
      const childPath = [...path, key];
      const childPointer = pointerOf(childPath);
      const keyLine = lineAt(keyAt);
      const firstLine = seen.get(key);
      if (firstLine !== undefined) duplicates.push({ pointer: childPointer, key, line: keyLine, firstLine });
      else seen.set(key, keyLine);
      lines.set(childPointer, keyLine);
      skipSpace(childPath);
      if (text[i] !== ':') fail(`expected ":" after the key "${key}" but found ${describeChar(text[i])}`, i, childPath);
      i++;
      entries.push([key, readValue(childPath)]);
      skipSpace(path);
      const after = text[i];
      if (after === ',') {
        comma = i++;
        continue;
      }
      if (after === '}') {
        i++;
        // Object.fromEntries defines own properties (also "__proto__") and keeps the last of a duplicate, as JSON.parse does.
        return Object.fromEntries(entries);
      }
      fail(`expected "," or "}" after the value of "${key}" but found ${describeChar(after)} (is a comma missing?)`, i, path);
    }
  };

  const readArray = (path: Array<string | number>): unknown[] => {
    i++; // [
    const items: unknown[] = [];
    let comma = -1;
    skipSpace(path);
    if (text[i] === ']') {
      i++;
      return items;
    }
    for (;;) {
      const childPath = [...path, items.length];
      skipSpace(childPath);
      if (text[i] === ']' && items.length > 0) fail('trailing comma before "]" (remove the last ",")', comma, path);
      lines.set(pointerOf(childPath), lineAt(i));
      items.push(readValue(childPath));
      skipSpace(path);
      const after = text[i];
      if (after === ',') {
        comma = i++;
        continue;
      }
      if (after === ']') {
        i++;
        return items;
      }
      fail(`expected "," or "]" after item ${items.length - 1} but found ${describeChar(after)} (is a comma missing?)`, i, path);
    }
  };

  skipSpace([]);
  lines.set('', lineAt(Math.min(i, Math.max(text.length - 1, 0))));
  const value = readValue([]);
  skipSpace([]);
  if (i < text.length) fail(`unexpected ${describeChar(text[i])} after the end of the JSON document`, i, []);
  return { value, lines, duplicates };
}

/** Line of a pointer: its own key when recorded, else that of the nearest recorded parent. */
/** The 1-based line of a JSON pointer in a JSON text (of its nearest ancestor that is there). */
export function lineOfPointer(text: string, pointer: string): number {
  try {
    return locate(readJson(text, lineStartsOf(text)).lines, pointer);
  } catch {
    return 1;
  }
}

function locate(lines: Map<string, number>, pointer: string): number {
  let p = pointer;
  for (;;) {
    const line = lines.get(p);
    if (line !== undefined) return line;
    if (p === '') return 1;
    p = p.slice(0, p.lastIndexOf('/'));
  }
}

// ---------------------------------------------------------------------------------------------
// Message helpers
// ---------------------------------------------------------------------------------------------

function quoteList(values: Iterable<string>): string {
  return [...values].join(', ');
}

function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  let prevPrev = prev;
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) {
      let d = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1));
      // A swap of two neighbouring letters ("trem" for "term") counts as one edit.
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d = Math.min(d, (prevPrev[j - 2] ?? 0) + 1);
      cur[j] = d;
    }
    prevPrev = prev;
    prev = cur;
  }
  return prev[y.length] ?? 0;
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
function withChoices(what: string, value: string, label: string, allowed: Iterable<string>): string {
  const list = [...allowed];
  return `${what} (${label}: ${list.length > 0 ? quoteList(list) : 'none'}).${suggestion(value, list)}`;
}

function unknownName(kind: string, value: string, allowed: readonly string[]): string {
  return withChoices(`unknown ${kind} "${value}"`, value, `known ${kind}s`, allowed);
}

// ---------------------------------------------------------------------------------------------
// Inputs of the invoked actors (the settings a product owner may change, e.g. the eKYC polling)
// ---------------------------------------------------------------------------------------------

type InputRule =
  | { kind: 'integer'; min: number; max: number; meaning: string }
  /** Must equal the flow's meta.applicationType. */
  | { kind: 'applicationType' };

/**
 * What each actor reads from "input" (src/client/runtime/implementations.ts); every key is required.
 * The ranges keep a slip of the pen out: "5" for five seconds would poll the server every 5 ms.
 */
const actorInputs: Record<ActorName, Record<string, InputRule>> = {
  startEkyc: { applicationType: { kind: 'applicationType' } },
  pollEkycStatus: {
    intervalMs: { kind: 'integer', min: 1000, max: 60_000, meaning: 'milliseconds between two status checks: 5000 is 5 seconds' },
    maxTries: { kind: 'integer', min: 1, max: 100, meaning: 'status checks before the applicant is sent to the eKYC error page' },
  },
  completeApplication: {},
};

function checkActorInput(src: ActorName, input: unknown, invokePointer: string, applicationType: string, add: (pointer: string, message: string) => void): void {
  const rules = actorInputs[src];
  const names = Object.keys(rules);
  const at = `${invokePointer}/input`;
  if (names.length === 0) {
    if (input !== undefined) add(at, `the actor "${src}" takes no input; remove "input"`);
    return;
  }
  if (!isObject(input)) {
    const example = names.map((n) => `"${n}": …`).join(', ');
    add(input === undefined ? invokePointer : at, `the actor "${src}" needs "input": { ${example} }`);
    return;
  }
  for (const key of Object.keys(input)) {
    if (!names.includes(key)) add(`${at}/${escapePointerSegment(key)}`, withChoices(`unknown input "${key}" of the actor "${src}"`, key, 'its inputs', names));
  }
  for (const [name, rule] of Object.entries(rules)) {
    const value = input[name];
    if (value === undefined) {
      if (!Object.keys(input).some((k) => suggestion(k, [name]) !== '')) add(at, `the input of "${src}" is missing "${name}"`);
      continue;
    }
    const pointer = `${at}/${escapePointerSegment(name)}`;
    if (rule.kind === 'applicationType') {
      if (value !== applicationType) add(pointer, `"${name}" must be ${JSON.stringify(applicationType)}, the meta.applicationType of this flow, not ${JSON.stringify(value)}`);
    } else if (typeof value !== 'number' || !Number.isInteger(value) || value < rule.min || value > rule.max) {
      add(pointer, `"${name}" must be a whole number from ${rule.min} to ${rule.max} (${rule.meaning}), not ${JSON.stringify(value)}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Schema
// ---------------------------------------------------------------------------------------------

const validators = new WeakMap<object, ValidateFunction>();

function validatorFor(schema: object): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    const ajv = new Ajv({ allErrors: true, verbose: true, allowUnionTypes: true, strict: true });
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

const patternMeanings: Record<string, string> = {
  '^/': 'must start with "/"',
  '^[A-Za-z][A-Za-z0-9_]*$': 'must start with a letter and use only letters, digits and "_" (no ".", "#", "-" or spaces)',
};

function typeOfJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return `the number ${value}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}

function lastSegment(pointer: string): string {
  const raw = pointer.slice(pointer.lastIndexOf('/') + 1);
  return raw.replace(/~1/g, '/').replace(/~0/g, '~');
}

function allowedKeys(error: ErrorObject): string[] {
  const parent = error.parentSchema as { properties?: Record<string, unknown> } | undefined;
  return Object.keys(parent?.properties ?? {});
}

/** One clear message per schema error; undefined for errors that only repeat another one. */
function schemaProblem(error: ErrorObject, all: ErrorObject[]): { pointer: string; message: string } | undefined {
  const at = error.instancePath;
  const name = at === '' ? 'the file' : `"${lastSegment(at)}"`;
  switch (error.keyword) {
    case 'if':
    case 'propertyNames':
      return undefined; // the error inside the branch / the name pattern says it better
    case 'additionalProperties': {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      const allowed = allowedKeys(error);
      return {
        pointer: `${at}/${escapePointerSegment(key)}`,
        message: withChoices(`unknown key "${key}"`, key, 'allowed keys here', allowed),
      };
    }
    case 'required': {
      const missing = String((error.params as { missingProperty: string }).missingProperty);
      // A typo of this very key is already reported as an unknown key with "Did you mean".
      const typo = all.some(
        (e) =>
          e.keyword === 'additionalProperties' &&
          e.instancePath === at &&
          suggestion(String((e.params as { additionalProperty: string }).additionalProperty), [missing]) !== '',
      );
      return typo ? undefined : { pointer: at, message: `${name} is missing the required key "${missing}"` };
    }
    case 'type': {
      const expected = (error.params as { type: string | string[] }).type;
      const list = (Array.isArray(expected) ? expected : String(expected).split(',')).join(' or ');
      return { pointer: at, message: `${name} must be ${list}, not ${typeOfJson(error.data)}` };
    }
    case 'enum': {
      const allowed = ((error.params as { allowedValues: unknown[] }).allowedValues ?? []).map(String);
      return {
        pointer: at,
        message: withChoices(`${name} cannot be ${JSON.stringify(error.data)}`, String(error.data), 'allowed', allowed),
      };
    }
    case 'pattern': {
      const pattern = String((error.params as { pattern: string }).pattern);
      const meaning = patternMeanings[pattern] ?? `must match the pattern ${pattern}`;
      if (error.propertyName !== undefined) {
        return { pointer: `${at}/${escapePointerSegment(error.propertyName)}`, message: `state name "${error.propertyName}" ${meaning}` };
      }
      return { pointer: at, message: `${name} ${meaning}, not ${JSON.stringify(error.data)}` };
    }
    case 'minimum':
      return { pointer: at, message: `${name} must be at least ${String((error.params as { limit: number }).limit)}, not ${JSON.stringify(error.data)}` };
    case 'minLength':
      return { pointer: at, message: `${name} must not be empty` };
    case 'minProperties':
    case 'minItems':
      return { pointer: at, message: `${name} must not be empty` };
    default:
      return { pointer: at, message: `${name} ${error.message ?? 'is invalid'}` };
  }
}

// ---------------------------------------------------------------------------------------------
// Targets (the tree itself is read by ./statechart, shared with the diagram)
// ---------------------------------------------------------------------------------------------

function resolveOrExplain(root: StateNode, from: StateNode, target: string): { node: StateNode } | { error: string } {
  const r = resolveTarget(root, from, target);
  if ('node' in r) return r;
  if (r.error === 'other-flow') return { error: `transition target "${target}" refers to "#${r.referredId}", but this flow's id is "${r.flowId}" (write "#${r.flowId}.<state>")` };
  if (r.error === 'no-state') return { error: `transition target "${target}" must name a state after the flow id ("#${r.flowId}.<state>")` };
  const names = [...r.at.children.keys()];
  if (names.length === 0) return { error: `transition target "${target}" does not exist ("${r.at.path.join('.')}" has no sub-states)` };
  const where = r.at === root ? 'states' : `states of "${r.at.path.join('.')}"`;
  return { error: withChoices(`transition target "${target}" does not exist`, r.name, where, names) };
}

// ---------------------------------------------------------------------------------------------
// The lint
// ---------------------------------------------------------------------------------------------

const EKYC_START_ACTOR: ActorName = 'startEkyc';

/** Events that leave the forward path: a way back, a retry, a restart, a failure (an actor's error too). */
const NOT_FORWARD = new Set(['BACK', 'RETRY', 'RESTART', 'FAIL']);

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

export function lintFlow(input: LintInput): FlowProblem[] {
  const { fileName, text, schema, formNames, otherFlowPaths } = input;
  const lineStarts = lineStartsOf(text);
  const problems: FlowProblem[] = [];

  // 1. Well-formed JSON.
  let source: JsonSource;
  try {
    source = readJson(text, lineStarts);
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    const { line, column } = lineColumn(lineStarts, e.offset);
    return [{ file: fileName, pointer: e.pointer, line, message: `invalid JSON at line ${line} column ${column}: ${e.message}` }];
  }
  const add = (pointer: string, message: string, line = locate(source.lines, pointer)) => {
    problems.push({ file: fileName, pointer, line, message });
  };
  const sorted = () => problems.sort((a, b) => a.line - b.line || a.pointer.localeCompare(b.pointer));

  // 2. Shape: duplicate keys, then the schema.
  for (const d of source.duplicates) {
    add(d.pointer, `key "${d.key}" is written twice in the same object (first at line ${d.firstLine}); JSON keeps only the last one`, d.line);
  }
  const validate = validatorFor(schema);
  if (!validate(source.value)) {
    const errors = validate.errors ?? [];
    const seen = new Set<string>();
    for (const error of errors) {
      const p = schemaProblem(error, errors);
      if (!p || seen.has(`${p.pointer}\n${p.message}`)) continue;
      seen.add(`${p.pointer}\n${p.message}`);
      add(p.pointer, p.message);
    }
  }
  if (problems.length > 0) return sorted();

  // 3. Meaning. The schema guarantees the shape from here on.
  const flow = source.value as Json;
  const flowMeta = flow.meta as Json;
  const totalSteps = Number(flowMeta.totalSteps);
  const root = buildTree(flow);
  const nodes = allNodes(root);
  const topLevel = [...root.children.values()];
  const pathLabel = (n: StateNode) => `"${n.path.join('.')}"`;

  // 3a. Names from the vocabulary and the form list.
  const forms = [...formNames].sort();
  for (const node of nodes) {
    if (node === root) continue;
    const meta = metaOf(node);
    const screen = stringMeta(node, 'screen');
    if (screen !== undefined && !(screenNames as readonly string[]).includes(screen)) add(`${node.pointer}/meta/screen`, unknownName('screen', screen, screenNames));
    const form = stringMeta(node, 'form');
    if (form !== undefined && !forms.includes(form)) {
      add(`${node.pointer}/meta/form`, withChoices(`unknown form "${form}"`, form, 'known forms, schemas/<form>.schema.json', forms));
    }
    const asksForm = screen !== undefined && (formScreenNames as readonly string[]).includes(screen);
    if (asksForm && form === undefined) {
      add(`${node.pointer}/meta`, `screen "${screen}" asks a form: name it in "form" (known forms, schemas/<form>.schema.json: ${forms.join(', ')})`);
    } else if (!asksForm && form !== undefined && screen !== undefined && (screenNames as readonly string[]).includes(screen)) {
      add(`${node.pointer}/meta/form`, `screen "${screen}" asks no form, so "form" would be ignored; remove it (screens with a form: ${formScreenNames.join(', ')})`);
    }
    for (const key of ['entry', 'exit'] as const) {
      for (const ref of refsOf(node.config[key], `${node.pointer}/${key}`)) {
        if (!(actionNames as readonly string[]).includes(ref.value)) add(ref.pointer, unknownName('action', ref.value, actionNames));
      }
    }
    const on = node.config.on;
    if (isObject(on)) {
      for (const event of Object.keys(on)) {
        if (!(eventTypes as readonly string[]).includes(event)) add(`${node.pointer}/on/${escapePointerSegment(event)}`, unknownName('event', event, eventTypes));
      }
    }
    for (const inv of invokesOf(node)) {
      const src = String(inv.config.src);
      if (!isOneOf(actorNames, src)) add(`${inv.pointer}/src`, unknownName('actor', src, actorNames));
      else checkActorInput(src, inv.config.input, inv.pointer, String(flowMeta.applicationType), add);
    }
    for (const t of nodeTransitions(node)) {
      if (t.guard && !(guardNames as readonly string[]).includes(t.guard.value)) add(t.guard.pointer, unknownName('guard', t.guard.value, guardNames));
      for (const a of t.actions) if (!(actionNames as readonly string[]).includes(a.value)) add(a.pointer, unknownName('action', a.value, actionNames));
    }

    // Page metadata is read on top-level states only, and a page needs path, screen and title together.
    if (node.parent !== root) {
      const pageKeys = Object.keys(meta);
      if (pageKeys.length > 0) add(`${node.pointer}/meta`, `meta.${pageKeys.join(', meta.')} is only read on top-level states; sub-state ${pathLabel(node)} is part of the page of "${topLevelOf(node).path[0]}"`);
      continue;
    }
    const path = stringMeta(node, 'path');
    if (meta.exitTo !== undefined) {
      if (node.config.type !== 'final') add(`${node.pointer}/meta/exitTo`, `state ${pathLabel(node)} has meta.exitTo, so it must be "type": "final" (it leaves this flow)`);
      if (path !== undefined) add(`${node.pointer}/meta/path`, `state ${pathLabel(node)} leaves the flow (meta.exitTo), so it cannot also be a page (meta.path)`);
    } else if (path === undefined) {
      const pageOnly = ['screen', 'step', 'form', 'entry', 'title'].filter((k) => meta[k] !== undefined);
      if (pageOnly.length > 0) add(`${node.pointer}/meta`, `state ${pathLabel(node)} has meta.${pageOnly.join(', meta.')} but no meta.path: only a page (a state with a path) uses them`);
    } else {
      if (screen === undefined) add(`${node.pointer}/meta`, `page ${pathLabel(node)} (path "${path}") has no meta.screen`);
      if (meta.title === undefined) add(`${node.pointer}/meta`, `page ${pathLabel(node)} (path "${path}") has no meta.title (it is the heading and the document title)`);
    }
  }

  // 3b. Paths: unique in this flow and across flows; exits lead into another flow.
  const pathOwner = new Map<string, StateNode>();
  const ownPaths = new Set<string>();
  for (const node of topLevel) {
    const path = stringMeta(node, 'path');
    if (path === undefined) continue;
    ownPaths.add(path);
    const first = pathOwner.get(path);
    if (first) add(`${node.pointer}/meta/path`, `path "${path}" is already used by state "${first.path[0]}" (line ${locate(source.lines, `${first.pointer}/meta/path`)}); each page needs its own path`);
    else pathOwner.set(path, node);
    if (otherFlowPaths?.includes(path)) add(`${node.pointer}/meta/path`, `path "${path}" is also used by another flow; each page needs a path of its own across all flows`);
  }
  if (otherFlowPaths) {
    const others = [...new Set(otherFlowPaths)].filter((p) => !ownPaths.has(p));
    for (const node of topLevel) {
      const exitTo = stringMeta(node, 'exitTo');
      if (exitTo === undefined || otherFlowPaths.includes(exitTo)) continue;
      add(
        `${node.pointer}/meta/exitTo`,
        ownPaths.has(exitTo)
          ? `exitTo "${exitTo}" is a page of this flow; use a transition to its state instead`
          : withChoices(`exitTo "${exitTo}" is not a page of another flow`, exitTo, 'pages of the other flows', others),
      );
    }
  }

  // 3c. Initial states, targets, flow settings.
  const checkInitial = (node: StateNode) => {
    const initial = node.config.initial;
    const pointer = node === root ? '/initial' : `${node.pointer}/initial`;
    const names = [...node.children.keys()];
    if (typeof initial === 'string') {
      if (!node.children.has(initial)) {
        const where = node === root ? 'states' : `sub-states of ${pathLabel(node)}`;
        add(pointer, names.length === 0 ? `initial state "${initial}" does not exist: ${pathLabel(node)} has no sub-states` : withChoices(`initial state "${initial}" does not exist`, initial, where, names));
      }
    } else if (node !== root && node.children.size > 0 && node.config.type !== 'parallel') {
      add(node.pointer, `state ${pathLabel(node)} has sub-states but no "initial" (one of: ${quoteList(names)})`);
    }
  };
  /** Top-level target of each transition that leaves its page (for the graph checks below). */
  const resolved = new Map<Transition, StateNode>();
  const beforeTargets = problems.length;
  for (const node of nodes) {
    checkInitial(node);
    for (const t of nodeTransitions(node)) {
      if (!t.target) continue;
      const r = resolveOrExplain(root, node, t.target.value);
      if ('error' in r) add(t.target.pointer, r.error);
      else resolved.set(t, r.node);
    }
  }
  // With a broken target or initial state the graph below is incomplete: its findings (unreachable
  // states, step order, BACK) would only echo that mistake, so they wait until it is fixed.
  const graphComplete = problems.length === beforeTargets;
  for (const key of ['landing', 'errorState'] as const) {
    const name = String(flowMeta[key]);
    const state = root.children.get(name);
    const pages = topLevel.filter(isPage).map((n) => n.path[0] ?? '');
    if (!state) add(`/meta/${key}`, withChoices(`meta.${key} "${name}" is not a state of this flow`, name, 'pages', pages));
    else if (!isPage(state)) add(`/meta/${key}`, `meta.${key} "${name}" is a state without meta.path, so it cannot be opened as a page (pages: ${quoteList(pages)})`);
  }

  // 3d. Reachability, following XState's entry: entering a node enters its ancestors and its initial
  // child (all children of a parallel node). Roots: the initial state, entry pages, the error page.
  const reachable = new Set<StateNode>([root]);
  const enter = (node: StateNode) => {
    for (let n: StateNode | undefined = node; n && !reachable.has(n); n = n.parent) reachable.add(n);
    if (node.config.type === 'parallel') for (const c of node.children.values()) if (!reachable.has(c)) enter(c);
    const initial = node.config.initial;
    const first = typeof initial === 'string' ? node.children.get(initial) : undefined;
    if (first && !reachable.has(first)) enter(first);
  };
  const rootInitial = root.children.get(String(flow.initial));
  if (rootInitial) enter(rootInitial);
  for (const node of topLevel) if (metaOf(node).entry === true) enter(node);
  const errorNode = root.children.get(String(flowMeta.errorState));
  if (errorNode) enter(errorNode);
  for (let changed = graphComplete; changed; ) {
    changed = false;
    for (const [t, target] of resolved) {
      if (reachable.has(t.node) && !reachable.has(target)) {
        enter(target);
        changed = true;
      }
    }
  }
  for (const node of graphComplete ? nodes : []) {
    if (reachable.has(node) || (node.parent && !reachable.has(node.parent))) continue;
    const how = node.parent === root ? `the initial state "${String(flow.initial)}", an entry page or the error page` : `the initial sub-state of ${pathLabel(node.parent ?? root)}`;
    add(node.pointer, `state ${pathLabel(node)} can never be reached: no transition leads to it from ${how}`);
  }

  // 3e. Dead ends. An atomic state that is not final needs a way out: a transition with a target,
  // written on it or on a state around it (a sub-state also takes its page's transitions). Exempt:
  // a state entered by a transition with the action "leaveForProvider" (a hand-over state). There the
  // browser leaves the app for the identity provider, whose return is an entry page of its own
  // (the one invoking "pollEkycStatus"), so the machine rightly stops there.
  const handOvers = handOverStates([...resolved].map(([transition, target]) => ({ transition, target })));
  const leaves = nodes.filter((n) => n !== root && n.children.size === 0);
  const isFinal = (n: StateNode) => n.config.type === 'final';
  /** Nodes whose transitions apply while `leaf` is active: itself, its ancestors, all of a parallel ancestor. */
  const activeWith = (leaf: StateNode): StateNode[] => {
    const active = new Set<StateNode>();
    for (let n: StateNode | undefined = leaf; n && n !== root; n = n.parent) {
      active.add(n);
      if (n.config.type === 'parallel') for (const d of allNodes(n)) active.add(d);
    }
    return [...active];
  };
  const deadEnds = new Set<StateNode>();
  for (const leaf of leaves) {
    if (isFinal(leaf) || handOvers.has(leaf)) continue;
    const around = activeWith(leaf);
    if (around.some((n) => nodeTransitions(n).some((t) => t.target !== undefined))) continue;
    deadEnds.add(leaf);
    const owners = around.length > 1 ? `neither it nor ${quoteList(around.slice(1).map(pathLabel))} has a` : 'it has no';
    add(
      leaf.pointer,
      `state ${pathLabel(leaf)} is a dead end: ${owners} transition that leads anywhere; add one, or mark it "type": "final"` +
        ` (if the applicant leaves for the identity provider here, enter it with the action "${HAND_OVER_ACTION}")`,
    );
  }
  // An invoked actor's result and failure must both lead somewhere, else the applicant waits on the page for ever.
  for (const node of nodes) {
    for (const inv of invokesOf(node)) {
      for (const [key, when] of [
        ['onDone', 'when it succeeds'],
        ['onError', 'when it fails'],
      ] as const) {
        if (inv.config[key] === undefined) add(inv.pointer, `the invoked actor "${inv.src}" in ${pathLabel(node)} has no ${key}: ${when}, the applicant would stay on this page for ever; add "${key}": "<state>"`);
      }
    }
  }
  // From every reachable state some way must lead to a final state or to a hand-over state; else the
  // applicant can only go round in circles. Dead ends above count as ways out here, not to report them twice.
  if (graphComplete) {
    const targetAt = new Map([...resolved].map(([t, target]) => [t.pointer, target]));
    const successors = new Map(
      leaves.map((leaf) => [
        leaf,
        activeWith(leaf)
          .flatMap(nodeTransitions)
          .flatMap((t) => {
            const target = targetAt.get(t.pointer);
            return target ? enteredLeaves(target) : [];
          }),
      ]),
    );
    const finishes = new Set(leaves.filter((l) => isFinal(l) || handOvers.has(l) || deadEnds.has(l)));
    for (let changed = true; changed; ) {
      changed = false;
      for (const leaf of leaves) {
        if (!finishes.has(leaf) && (successors.get(leaf) ?? []).some((s) => finishes.has(s))) {
          finishes.add(leaf);
          changed = true;
        }
      }
    }
    for (const leaf of leaves) {
      if (finishes.has(leaf) || !reachable.has(leaf)) continue;
      const circle = new Set<StateNode>();
      const visit = (n: StateNode) => {
        for (const s of successors.get(n) ?? []) {
          if (circle.has(s)) continue;
          circle.add(s);
          visit(s);
        }
      };
      visit(leaf);
      add(
        leaf.pointer,
        `state ${pathLabel(leaf)} is a dead end: no way from it leads to a final state or to the identity provider` +
          ` (it only leads to ${quoteList([...circle].map(pathLabel)) || 'itself'}); add a transition out of the circle`,
      );
    }
  }

  // Page graph: transitions that leave a top-level state for another one.
  const pageEdges = [...resolved]
    .map(([t, target]) => ({ t, from: topLevelOf(t.node), to: topLevelOf(target) }))
    .filter((e) => e.from !== e.to);
  const nextEdges = pageEdges.filter((e) => e.t.event === 'NEXT');
  const backEdges = pageEdges.filter((e) => e.t.event === 'BACK');
  const nextInto = (node: StateNode) => nextEdges.filter((e) => e.to === node).map((e) => e.from);
  const handOverPages = new Set([...handOvers].map(topLevelOf));
  // Starting the identity check submits what was entered and uploaded before: no way back from there.
  const startsEkyc = (node: StateNode) => handOverPages.has(node) || allNodes(node).some((n) => invokesOf(n).some((i) => i.src === EKYC_START_ACTOR));

  // 3f. Step counters: 1..totalSteps; the largest is totalSteps; the first on the forward path is 1,
  // and they never go down along it. The forward path is the way an applicant moves on when all goes
  // well: every transition but a way back, a retry, a restart, a failure or an actor's error, plus
  // the identity provider's return (from a hand-over page to the provider return pages).
  const stepped = topLevel.filter((n) => stepOf(n) !== undefined);
  for (const node of stepped) {
    const step = stepOf(node) ?? 0;
    if (step > totalSteps) add(`${node.pointer}/meta/step`, `step ${step} of ${pathLabel(node)} is outside 1..${totalSteps} (meta.totalSteps is ${totalSteps})`);
  }
  if (stepped.length === 0) {
    add('/meta/totalSteps', `meta.totalSteps is ${totalSteps} but no page has a meta.step`);
  } else {
    const largest = stepped.reduce((a, b) => ((stepOf(b) ?? 0) > (stepOf(a) ?? 0) ? b : a));
    if (stepOf(largest) !== totalSteps) add('/meta/totalSteps', `meta.totalSteps is ${totalSteps} but the largest step is ${String(stepOf(largest))} (state ${pathLabel(largest)}); they must be equal`);
  }
  const forwardEdges: Array<{ from: StateNode; to: StateNode; how: string }> = [
    ...pageEdges
      .filter((e) => !NOT_FORWARD.has(e.t.event) && e.t.invoke?.outcome !== 'error')
      .map((e) => ({ from: e.from, to: e.to, how: `which leads to it by ${e.t.invoke ? `"${e.t.invoke.src}" done` : e.t.event}` })),
    ...[...handOverPages].flatMap((from) =>
      providerReturnPages(root).map((to) => ({ from, to, how: `which hands over to the identity provider, who sends the applicant back to it ("${PROVIDER_RETURN_ACTOR}")` })),
    ),
  ];
  if (rootInitial && graphComplete) {
    // The largest step seen on the way into each page, carried through pages without a step.
    const forward = new Set<StateNode>([rootInitial]);
    const carried = new Map<StateNode, { step: number; node: StateNode }>();
    const own = (n: StateNode) => {
      const step = stepOf(n);
      return step !== undefined ? { step, node: n } : carried.get(n);
    };
    for (let changed = true; changed; ) {
      changed = false;
      for (const e of forwardEdges) {
        if (!forward.has(e.from)) continue;
        if (!forward.has(e.to)) {
          forward.add(e.to);
          changed = true;
        }
        const before = own(e.from);
        const known = carried.get(e.to);
        if (before && (!known || before.step > known.step)) {
          carried.set(e.to, before);
          changed = true;
        }
      }
    }
    const firstStep = (node: StateNode) => add(`${node.pointer}/meta/step`, `the first step page on the forward path, ${pathLabel(node)}, has step ${String(stepOf(node))}; it must be 1`);
    if (stepOf(rootInitial) !== undefined && stepOf(rootInitial) !== 1) firstStep(rootInitial);
    for (const node of stepped) {
      const step = stepOf(node) ?? 0;
      const into = forwardEdges.filter((e) => e.to === node && forward.has(e.from));
      const before = carried.get(node);
      if (before && step < before.step) {
        const direct = into.find((e) => e.from === before.node);
        add(
          `${node.pointer}/meta/step`,
          `step ${step} of ${pathLabel(node)} is lower than step ${before.step} of ${pathLabel(before.node)}, ` +
            (direct ? direct.how : 'which comes before it on the forward path') +
            '; steps must not go down',
        );
      } else if (step !== 1 && into.some((e) => own(e.from) === undefined)) firstStep(node);
    }
  }

  // 3g. A way back, as the spec's navigation pairs have it: a step page must have a BACK transition
  // to the page that leads to it by NEXT, except
  //   - right after the PIN page (screen "Pin"): the PIN is final once set, and
  //   - on a page that starts the identity check (it invokes "startEkyc", or hands the applicant over
  //     with "leaveForProvider"): what was entered and uploaded before is submitted at that point.
  // Entry pages and pages opened by an actor's result have no NEXT predecessor, so they are exempt.
  // Shipped result: every step page has BACK except general ekycPreparation, ekycCallback and child
  // ekycPreparation, parentEkycPreparation, ekycCallback.
  // And every BACK that leaves a page leads to a page that leads to it by NEXT (else the back button
  // would open a page the applicant never came from).
  for (const node of graphComplete ? stepped.filter((n) => reachable.has(n)) : []) {
    const from = nextInto(node).filter((p) => isPage(p) && stringMeta(p, 'screen') !== 'Pin');
    if (from.length === 0 || startsEkyc(node)) continue;
    if (backEdges.some((e) => e.from === node)) continue;
    const on = isObject(node.config.on);
    add(
      on ? `${node.pointer}/on` : node.pointer,
      `step page ${pathLabel(node)} has no BACK transition, but ${quoteList(from.map(pathLabel))} leads to it by NEXT; add "BACK": "${from[0]?.path[0] ?? ''}"`,
    );
  }
  for (const e of graphComplete ? backEdges.filter((b) => reachable.has(b.from)) : []) {
    const predecessors = nextInto(e.from);
    if (predecessors.includes(e.to)) continue;
    add(
      e.t.target?.pointer ?? e.t.pointer,
      `BACK from ${pathLabel(e.from)} leads to ${pathLabel(e.to)}, but ${pathLabel(e.to)} does not lead to ${pathLabel(e.from)} by NEXT` +
        (predecessors.length > 0 ? ` (pages that do: ${quoteList(predecessors.map((p) => p.path[0] ?? ''))})` : ' (no page leads to it by NEXT)'),
    );
  }

  return sorted();
}

/** Lints several flows together: each one is checked against the pages of the others, and flow ids must differ. */
export function lintFlows(files: Array<{ fileName: string; text: string }>, schema: object, formNames: string[]): FlowProblem[] {
  const paths = files.map((f) => readFlowPaths(f.text));
  const problems: FlowProblem[] = [];
  const ids = new Map<string, string>();
  files.forEach((file, index) => {
    // While another file is not even JSON its pages are unknown: the cross-flow checks wait for it.
    const others = paths.filter((_, j) => j !== index);
    const otherFlowPaths = others.every((p) => p !== undefined) ? others.flat() : undefined;
    const own = lintFlow({ fileName: file.fileName, text: file.text, schema, formNames, otherFlowPaths });
    problems.push(...own);
    if (own.length > 0) return;
    const id = String((JSON.parse(file.text.replace(/^\uFEFF/, '')) as Json).id);
    const first = ids.get(id);
    if (first !== undefined) {
      const lines = readJson(file.text, lineStartsOf(file.text)).lines;
      problems.push({ file: file.fileName, pointer: '/id', line: locate(lines, '/id'), message: `flow id "${id}" is already used by ${first}; each flow needs its own id` });
    } else ids.set(id, file.fileName);
  });
  return problems;
}
