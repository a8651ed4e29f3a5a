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
  const containerPath = container?.path ?? [];
  const valuePath = container ? [...containerPath, container.kind === 'array' ? container.items : (container.key ?? '')] : [];
  let offset = e.offset;
  let path: ReadonlyArray<string | number> = e.expecting === 'value' || e.expecting === 'colon' ? valuePath : containerPath;
  const ch = text[offset];
  const previous = /,\s*$/.exec(text.slice(0, offset));
  let message: string;
  const notQuoted = ch === "'" || (ch !== undefined && /[A-Za-z_$]/.test(ch));
  const keyMessage = () =>
    notQuoted ? 'object keys must be written in double quotes (")' : `expected a key in double quotes but found ${describeChar(ch)}`;
  const valueMessage = () => {
    if (ch === "'") return 'strings must be written in double quotes ("), not single quotes';
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return 'invalid number';
    if (ch === undefined || ch === ',' || ch === '}' || ch === ']') return `expected a value but found ${describeChar(ch)}`;
    return `expected a value but found ${describeChar(ch)} (text must be in double quotes)`;
  };
  const separatorMessage = () =>
    container?.kind === 'array'
      ? `expected "," or "]" after item ${container.items - 1} but found ${describeChar(ch)} (is a comma missing?)`
      : `expected "," or "}" after the value of "${container?.key ?? ''}" but found ${describeChar(ch)} (is a comma missing?)`;
  const colonMessage = () => `expected ":" after the key "${container?.key ?? ''}" but found ${describeChar(ch)}`;
  /** The first character of the string starting at `from` that matches (or none). */
  const inString = (from: number, pattern: RegExp) => {
    pattern.lastIndex = from + 1;
    return pattern.exec(text)?.index;
  };
  /** The first escape of the string starting at `from` that is wrong (by its letter and offset), or none. */
  const badEscape = (from: number, wrong: (letter: string, at: number) => boolean) => {
    for (let i = from + 1; i < text.length && text[i] !== '"'; i++) {
      if (text[i] !== '\\') continue;
      if (wrong(text[i + 1] ?? '', i)) return i;
      i++;
    }
    return undefined;
  };
  switch (e.code) {
    case 'InvalidCommentToken':
    case 'UnexpectedEndOfComment':
      message = 'comments are not allowed in JSON';
      break;
    case 'UnexpectedEndOfString':
    case 'InvalidCharacter': {
      const control = inString(offset, /[\u0000-\u001f]/g);
      if (control !== undefined) {
        offset = control;
        message = 'line break or control character inside a string (missing closing "?)';
      } else message = 'unterminated string (missing closing ")';
      break;
    }
    case 'InvalidUnicode':
      offset = badEscape(offset, (esc, i) => esc === 'u' && !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) ?? offset;
      message = 'invalid \\u escape in string';
      break;
    case 'InvalidEscapeCharacter':
      offset = badEscape(offset, (esc) => !'"\\/bfnrtu'.includes(esc)) ?? offset;
      message = `invalid escape "\\${text[offset + 1] ?? ''}" in string`;
      break;
    case 'InvalidNumberFormat':
    case 'UnexpectedEndOfNumber':
      message = 'invalid number';
      break;
    case 'ColonExpected':
      path = valuePath;
      message = colonMessage();
      break;
    case 'CommaExpected':
    case 'CloseBraceExpected':
    case 'CloseBracketExpected':
      path = containerPath;
      message = separatorMessage();
      break;
    case 'PropertyNameExpected':
      path = containerPath;
      if (ch === '}' && previous) {
        offset = previous.index;
        message = 'trailing comma before "}" (remove the last ",")';
      } else message = keyMessage();
      break;
    case 'ValueExpected':
      if (ch === ']' && previous && container?.kind === 'array') {
        offset = previous.index;
        path = containerPath;
        message = 'trailing comma before "]" (remove the last ",")';
      } else if (e.expecting === 'key') {
        path = containerPath;
        message = keyMessage();
      } else message = valueMessage();
      break;
    case 'InvalidSymbol':
      if (e.expecting === 'nothing' || !container) {
        path = [];
        message = e.expecting === 'nothing' ? `unexpected ${describeChar(ch)} after the end of the JSON document` : valueMessage();
      } else if (e.expecting === 'key' || e.next === 'PropertyNameExpected') {
        path = containerPath;
        message = keyMessage();
      } else if (e.expecting === 'colon') {
        message = colonMessage();
      } else if (e.expecting === 'separator') {
        path = containerPath;
        message = separatorMessage();
      } else message = valueMessage();
      break;
    case 'EndOfFileExpected':
      path = [];
      message = `unexpected ${describeChar(ch)} after the end of the JSON document`;
      break;
    default:
      message = valueMessage();
  }
  return { pointer: pointerOf(path), ...lineColumn(text, offset), message };
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
