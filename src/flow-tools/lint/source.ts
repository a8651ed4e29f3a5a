/**
 * A flow file's text read with positions: jsonc-parser (strict: no comments, no trailing commas)
 * gives the syntax tree and the syntax errors with their offsets; this module turns an error into
 * the lint's plain-language message and a JSON pointer into the line of its key.
 */
import { findNodeAtLocation, parseTree, printParseErrorCode, visit, type Node, type ParseError, type ParseOptions } from 'jsonc-parser';
import { escapePointerSegment } from '../../domain/json-pointer';

const STRICT: ParseOptions = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

export interface FlowSource {
  /** The value, as JSON.parse reads it (the last of a key written twice wins). */
  value: unknown;
  /** 1-based line of a pointer: its key (object member) or its value (array item, root); else its nearest ancestor's. */
  lineOf(pointer: string): number;
  duplicates: Array<{ pointer: string; key: string; line: number; firstLine: number }>;
}

export interface SyntaxProblem {
  pointer: string;
  line: number;
  column: number;
  message: string;
}

/** A byte order mark read as a space, so that offsets stay those of the file. */
const withoutBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text);

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The node at a pointer, or at its nearest ancestor in the tree. */
function nodeAt(tree: Node, pointer: string): Node {
  let node = tree;
  for (const raw of pointer === '' ? [] : pointer.slice(1).split('/')) {
    const segment = unescapeSegment(raw);
    const next = findNodeAtLocation(node, [node.type === 'array' ? Number(segment) : segment]);
    if (!next) break;
    node = next;
  }
  return node;
}

function lineOfNode(text: string, node: Node): number {
  // An object member's line is that of its key (the property node starts there).
  const start = node.parent?.type === 'property' ? node.parent.offset : node.offset;
  return lineColumn(text, start).line;
}

/** Keys written twice in one object, at their second occurrence (JSON.parse keeps the last). */
function duplicatesOf(text: string, tree: Node): FlowSource['duplicates'] {
  const found: FlowSource['duplicates'] = [];
  const walk = (node: Node, pointer: string) => {
    if (node.type === 'array') (node.children ?? []).forEach((child, i) => walk(child, `${pointer}/${i}`));
    if (node.type !== 'object') return;
    const seen = new Map<string, number>();
    for (const property of node.children ?? []) {
      const [keyNode, valueNode] = property.children ?? [];
      if (!keyNode) continue;
      const key = String(keyNode.value);
      const childPointer = `${pointer}/${escapePointerSegment(key)}`;
      const line = lineColumn(text, keyNode.offset).line;
      const firstLine = seen.get(key);
      if (firstLine !== undefined) found.push({ pointer: childPointer, key, line, firstLine });
      else seen.set(key, line);
      if (valueNode) walk(valueNode, childPointer);
    }
  };
  walk(tree, '');
  return found;
}

function describeChar(ch: string | undefined): string {
  if (ch === undefined) return 'end of file';
  if (ch === '\n' || ch === '\r') return 'line break';
  return JSON.stringify(ch);
}

interface Container {
  kind: 'object' | 'array';
  path: Array<string | number>;
  /** Last key read (object) and number of items begun (array). */
  key?: string;
  items: number;
}

/** Where the reader stood when it met the first syntax error. */
interface ErrorPlace {
  code: string;
  offset: number;
  container: Container | undefined;
  /** After a key comes ":", after a value "," or the end of its container. */
  expecting: 'key' | 'colon' | 'value' | 'separator' | 'nothing';
  /** The code of the error reported right after (tells an unknown word in a key's place from one in a value's). */
  next?: string;
}

function firstError(text: string): ErrorPlace | undefined {
  const stack: Container[] = [];
  let expecting: ErrorPlace['expecting'] = 'value';
  let place: ErrorPlace | undefined;
  /** jsonc-parser ends a container before it reports its missing "}" or "]": that container is the one meant. */
  let closed: { container: Container; offset: number } | undefined;
  const begin = (kind: Container['kind'], path: Array<string | number>) => {
    const top = stack.at(-1);
    if (top?.kind === 'array') top.items++;
    stack.push({ kind, path, items: 0 });
    expecting = kind === 'object' ? 'key' : 'value';
  };
  const end = (offset: number) => {
    const container = stack.pop();
    closed = container && { container, offset };
    expecting = stack.length > 0 ? 'separator' : 'nothing';
  };
  visit(
    text,
    {
      onObjectBegin: (_o, _l, _sl, _sc, path) => begin('object', path()),
      onArrayBegin: (_o, _l, _sl, _sc, path) => begin('array', path()),
      onObjectEnd: end,
      onArrayEnd: end,
      onObjectProperty: (property) => {
        const top = stack.at(-1);
        if (top) top.key = property;
        expecting = 'colon';
      },
      onLiteralValue: () => {
        const top = stack.at(-1);
        if (top?.kind === 'array') top.items++;
        expecting = stack.length > 0 ? 'separator' : 'nothing';
      },
      onSeparator: (character) => {
        expecting = character === ':' || stack.at(-1)?.kind === 'array' ? 'value' : 'key';
      },
      onError: (error, offset) => {
        const code = printParseErrorCode(error);
        if (place) {
          place.next ??= code;
          return;
        }
        const unclosed = (code === 'CloseBraceExpected' || code === 'CloseBracketExpected') && closed?.offset === offset;
        const top = unclosed ? closed?.container : stack.at(-1);
        place = { code, offset, container: top && { ...top, path: [...top.path] }, expecting: unclosed ? 'separator' : expecting };
      },
    },
    STRICT,
  );
  return place;
}

function pointerOf(segments: ReadonlyArray<string | number>): string {
  return segments.map((s) => `/${escapePointerSegment(String(s))}`).join('');
}

/** The first syntax error as the lint says it, at the offset and pointer a product owner looks for. */
function syntaxProblem(text: string, e: ErrorPlace): SyntaxProblem {
  const { container } = e;
  const paths = {
    container: container?.path ?? [],
    value: container ? [...container.path, container.kind === 'array' ? container.items : (container.key ?? '')] : [],
    root: [],
  };
  /** Where the reader stood: in a value's place (after ":" or in a list), else in its container. */
  const here = e.expecting === 'value' || e.expecting === 'colon' ? 'value' : 'container';
  const at = (where: keyof typeof paths, message: string, offset = e.offset): SyntaxProblem => ({ pointer: pointerOf(paths[where]), ...lineColumn(text, offset), message });
  const ch = text[e.offset];
  const found = describeChar(ch);
  const previousComma = /,\s*$/.exec(text.slice(0, e.offset));
  const key = () =>
    at('container', ch === "'" || (ch !== undefined && /[A-Za-z_$]/.test(ch)) ? 'object keys must be written in double quotes (")' : `expected a key in double quotes but found ${found}`);
  const value = () => {
    if (ch === "'") return at(here, 'strings must be written in double quotes ("), not single quotes');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return at(here, 'invalid number');
    if (ch === undefined || ch === ',' || ch === '}' || ch === ']') return at(here, `expected a value but found ${found}`);
    return at(here, `expected a value but found ${found} (text must be in double quotes)`);
  };
  const separator = () =>
    at(
      'container',
      container?.kind === 'array'
        ? `expected "," or "]" after item ${container.items - 1} but found ${found} (is a comma missing?)`
        : `expected "," or "}" after the value of "${container?.key ?? ''}" but found ${found} (is a comma missing?)`,
    );
  const colon = () => at('value', `expected ":" after the key "${container?.key ?? ''}" but found ${found}`);
  const afterTheEnd = () => at('root', `unexpected ${found} after the end of the JSON document`);
  /** The first character of the string starting at e.offset that matches (or none). */
  const inString = (pattern: RegExp) => {
    pattern.lastIndex = e.offset + 1;
    return pattern.exec(text)?.index;
  };
  /** The first escape of the string starting at e.offset that is wrong (by its letter and offset), or none. */
  const badEscape = (wrong: (letter: string, at: number) => boolean) => {
    for (let i = e.offset + 1; i < text.length && text[i] !== '"'; i++) {
      if (text[i] !== '\\') continue;
      if (wrong(text[i + 1] ?? '', i)) return i;
      i++;
    }
    return undefined;
  };
  switch (e.code) {
    case 'InvalidCommentToken':
    case 'UnexpectedEndOfComment':
      return at(here, 'comments are not allowed in JSON');
    case 'UnexpectedEndOfString':
    case 'InvalidCharacter': {
      const control = inString(/[\u0000-\u001f]/g);
      return control !== undefined
        ? at(here, 'line break or control character inside a string (missing closing "?)', control)
        : at(here, 'unterminated string (missing closing ")');
    }
    case 'InvalidUnicode':
      return at(here, 'invalid \\u escape in string', badEscape((esc, i) => esc === 'u' && !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))));
    case 'InvalidEscapeCharacter': {
      const escape = badEscape((esc) => !'"\\/bfnrtu'.includes(esc)) ?? e.offset;
      return at(here, `invalid escape "\\${text[escape + 1] ?? ''}" in string`, escape);
    }
    case 'InvalidNumberFormat':
    case 'UnexpectedEndOfNumber':
      return at(here, 'invalid number');
    case 'ColonExpected':
      return colon();
    case 'CommaExpected':
    case 'CloseBraceExpected':
    case 'CloseBracketExpected':
      return separator();
    case 'PropertyNameExpected':
      return ch === '}' && previousComma ? at('container', 'trailing comma before "}" (remove the last ",")', previousComma.index) : key();
    case 'ValueExpected':
      if (ch === ']' && previousComma && container?.kind === 'array') return at('container', 'trailing comma before "]" (remove the last ",")', previousComma.index);
      return e.expecting === 'key' ? key() : value();
    case 'InvalidSymbol':
      if (e.expecting === 'nothing') return afterTheEnd();
      if (!container) return at('root', value().message);
      if (e.expecting === 'key' || e.next === 'PropertyNameExpected') return key();
      if (e.expecting === 'colon') return colon();
      return e.expecting === 'separator' ? separator() : value();
    case 'EndOfFileExpected':
      return afterTheEnd();
    default:
      return value();
  }
}

/** Reads a flow file's text: its value with the positions of its keys, or its first syntax error. */
export function readSource(fileText: string): FlowSource | SyntaxProblem {
  const text = withoutBom(fileText);
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, STRICT);
  const error = errors.length > 0 || !tree ? firstError(text) : undefined;
  if (error || !tree) return syntaxProblem(text, error ?? { code: 'ValueExpected', offset: 0, container: undefined, expecting: 'value' });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { pointer: '', line: 1, column: 1, message: e instanceof Error ? e.message : String(e) };
  }
  return { value, lineOf: (pointer) => lineOfNode(text, nodeAt(tree, pointer)), duplicates: duplicatesOf(text, tree) };
}

/** The 1-based line of a JSON pointer in a JSON text (of its nearest ancestor that is there); 1 when the text is no JSON. */
export function lineOfPointer(text: string, pointer: string): number {
  const source = readSource(text);
  return 'lineOf' in source ? source.lineOf(pointer) : 1;
}
