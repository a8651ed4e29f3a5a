import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { messageOf, messageProblems, resolveSchemaMessages } from '../../src/domain/schemas/messages.js';

/** The schemas name their messages by key of the one catalogue (src/domain/messages.ts). */
const dir = new URL('../../schemas/', import.meta.url);
const files = readdirSync(dir).filter((name) => name.endsWith('.schema.json'));
const read = (file: string): unknown => JSON.parse(readFileSync(new URL(file, dir), 'utf8'));

describe('message keys in the schemas', () => {
  it.each(files)('%s names only known messages, and no Japanese text of its own in errorMessage', (file) => {
    const schema = read(file);
    expect(messageProblems(schema)).toEqual([]);
    const texts: string[] = [];
    const walk = (node: unknown, inMessage: boolean) => {
      if (typeof node === 'string' && inMessage) texts.push(node);
      else if (typeof node === 'object' && node !== null) for (const [key, value] of Object.entries(node)) walk(value, inMessage || key === 'errorMessage');
    };
    walk(schema, false);
    expect(texts.filter((text) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(text))).toEqual([]);
  });

  it('resolves a key, a template with its number, and explains what it cannot', () => {
    expect(messageOf('required')).toEqual({ text: messages.required });
    expect(messageOf('tooLong:20')).toEqual({ text: '20文字以内で入力してください。' });
    expect(messageOf('tooLong:24')).toEqual({ text: messages.nameTooLong });
    expect(messageOf('requird')).toEqual({ error: 'unknown message "requird"' });
    expect(messageOf('tooLong')).toEqual({ error: 'message "tooLong" needs a whole number, as in "tooLong:20"' });
    expect(messageOf('required:3')).toEqual({ error: 'message "required" takes no argument, remove ":3"' });
    // A message that needs text from the request is not a schema's to name.
    expect(messageOf('unusableCharacters:3')).toEqual({ error: 'unknown message "unusableCharacters:3"' });
  });

  it('reports an unknown key at its JSON pointer and refuses to resolve it', () => {
    const schema = { properties: { name: { type: 'string', errorMessage: { type: 'requird', maxLength: 'tooLong:30' } } } };
    expect(messageProblems(schema)).toEqual([{ pointer: '/properties/name/errorMessage/type', reference: 'requird', message: 'unknown message "requird"' }]);
    expect(() => resolveSchemaMessages(schema, 'schemas/x.schema.json')).toThrow(/schemas\/x\.schema\.json: \/properties\/name\/errorMessage\/type: unknown message "requird"/);
    expect(resolveSchemaMessages({ errorMessage: 'tooLong:30' })).toEqual({ errorMessage: '30文字以内で入力してください。' });
  });
});
