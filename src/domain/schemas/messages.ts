import { escapePointerSegment } from '../json-pointer';
import { messages } from '../messages';
import { LOCAL_MESSAGES_KEYWORD } from '../forms/format';

/**
 * The schemas name their messages by key of the one catalogue (src/domain/messages.ts): an
 * `errorMessage` value is "required", or "tooLong:20" for a message that takes an argument.
 * resolveSchemaMessages turns the keys into the Japanese texts before a schema reaches ajv:
 * in the build of the browser's validators, in the browser's own copy of the schema (the
 * precompiled validators are found by the schema's hash, so both must be resolved alike) and
 * on the server.
 */

export interface MessageProblem {
  /** JSON pointer of the errorMessage value in the schema. */
  pointer: string;
  /** The key as written. */
  reference: string;
  message: string;
}

/** The catalogue's texts that take no argument, by key. */
const texts = Object.fromEntries(Object.entries(messages).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

/** The keys of the catalogue's texts that take no argument (what x-step.reminder may name). */
export const textMessageKeys: readonly string[] = Object.keys(texts);

/** What a schema may name: every text of the catalogue, and the templates that take a number. */
const catalogue: Record<string, string | ((argument: number) => string)> = { ...texts, tooLong: messages.tooLong };

/** The keys a schema may name, for the lint's "known messages" list (templates as tooLong:N). */
export const messageKeys: readonly string[] = Object.entries(catalogue).map(([key, value]) => (typeof value === 'function' ? `${key}:N` : key));

/** A form's own messages (its schema's x-messages): key → text. */
export type LocalMessages = Readonly<Record<string, unknown>>;

/** The text of a key (the form's own messages first, then the catalogue), or a sentence saying why there is none. */
export function messageOf(reference: string, local: LocalMessages = {}): { text: string } | { error: string } {
  const own = Object.hasOwn(local, reference) ? local[reference] : undefined;
  if (typeof own === 'string' && own !== '') return { text: own };
  const [key = '', argument, ...rest] = reference.split(':');
  const entry = Object.hasOwn(catalogue, key) ? catalogue[key] : undefined;
  if (entry === undefined) return { error: `unknown message "${reference}"` };
  if (typeof entry === 'string') {
    return argument === undefined ? { text: entry } : { error: `message "${key}" takes no argument, remove ":${argument}"` };
  }
  const value = Number(argument);
  if (rest.length > 0 || argument === undefined || !Number.isInteger(value) || value <= 0) {
    return { error: `message "${key}" needs a whole number, as in "${key}:20"` };
  }
  return { text: entry(value) };
}

/** Copies `schema` with every errorMessage key replaced by its text; reports the keys it cannot resolve. */
function resolve(node: unknown, pointer: string, inMessage: boolean, problems: MessageProblem[], local: LocalMessages): unknown {
  if (typeof node === 'string' && inMessage) {
    const found = messageOf(node, local);
    if ('text' in found) return found.text;
    problems.push({ pointer, reference: node, message: found.error });
    return node;
  }
  if (Array.isArray(node)) return node.map((item, i) => resolve(item, `${pointer}/${i}`, inMessage, problems, local));
  if (typeof node === 'object' && node !== null) {
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, resolve(value, `${pointer}/${escapePointerSegment(key)}`, inMessage || key === 'errorMessage', problems, local)]),
    );
  }
  return node;
}

/** The unresolvable message keys of a schema (the flow check reports them with file and line). */
export function messageProblems(schema: unknown): MessageProblem[] {
  const problems: MessageProblem[] = [];
  resolve(schema, '', false, problems, localMessagesOf(schema));
  return problems;
}

/** The schema's own messages (x-messages), or none. */
function localMessagesOf(schema: unknown): LocalMessages {
  const local = typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>)[LOCAL_MESSAGES_KEYWORD] : undefined;
  return typeof local === 'object' && local !== null && !Array.isArray(local) ? (local as LocalMessages) : {};
}

/**
 * Own messages that repeat a text of the catalogue (name the catalogue's key instead, so a
 * rewording reaches every form) or that are not text.
 */
export function localMessageProblems(schema: unknown): MessageProblem[] {
  const known = new Map(Object.entries(catalogue).flatMap(([key, value]) => (typeof value === 'string' ? [[value, key] as const] : [])));
  return Object.entries(localMessagesOf(schema)).flatMap(([key, text]) => {
    const pointer = `/${LOCAL_MESSAGES_KEYWORD}/${escapePointerSegment(key)}`;
    if (typeof text !== 'string' || text === '') return [{ pointer, reference: key, message: `message "${key}" must be a non-empty text` }];
    const same = known.get(text);
    return same === undefined ? [] : [{ pointer, reference: key, message: `message "${key}" repeats the catalogue's "${same}"; name "${same}" instead` }];
  });
}

/** The schema with its message keys resolved; throws on an unknown key (the flow check names it first). */
export function resolveSchemaMessages<T>(schema: T, name = 'schema'): T {
  const problems: MessageProblem[] = [];
  const resolved = resolve(schema, '', false, problems, localMessagesOf(schema)) as T;
  if (problems.length > 0) throw new Error(`${name}: ${problems.map((p) => `${p.pointer}: ${p.message}`).join('; ')}`);
  return resolved;
}
