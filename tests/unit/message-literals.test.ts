import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { httpMessages } from '../../src/server/http-messages.js';

/**
 * Each message is written once: the catalogues (src/domain/messages.ts, the spec's texts;
 * src/server/http-messages.ts, ours) hold the text, everything else names it by key, the
 * schemas and the landing checklists too ("required", "tooLong:20", "message": "childNotEligible").
 * A second copy of a message anywhere in src/, schemas/ or checklists/ fails here, so a wording
 * change cannot miss a copy.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : filesUnder(path);
    return /\.(ts|tsx|json)$/.test(name) ? [path] : [];
  });
}

const sources = [...filesUnder(join(root, 'src')), ...filesUnder(join(root, 'schemas')), ...filesUnder(join(root, 'checklists'))].map((path) => ({
  file: relative(root, path),
  text: readFileSync(path, 'utf8'),
}));

const catalogue = [
  ...Object.entries(messages).map(([key, text]) => ({ key: `messages.${key}`, text })),
  ...Object.entries(httpMessages).map(([key, text]) => ({ key: `httpMessages.${key}`, text })),
].filter((entry): entry is { key: string; text: string } => typeof entry.text === 'string');

describe('message literals', () => {
  it('each text of the catalogues is one message (no two keys share a text unless derived)', () => {
    const written = new Map<string, string>();
    for (const source of sources.filter((s) => /(domain\/messages|server\/http-messages)\.ts$/.test(s.file))) {
      for (const match of source.text.matchAll(/'([^']*[\u3040-\u30ff\u4e00-\u9fff][^']*)'/g)) {
        const text = match[1] ?? '';
        expect(written.get(text), `"${text}" is written twice in the catalogues`).toBeUndefined();
        written.set(text, source.file);
      }
    }
  });

  it.each(catalogue.map((entry) => [entry.key, entry.text] as const))('%s is written once in src/, schemas/ and checklists/', (_key, text) => {
    // A literal is the whole string: a sentence that contains the text is another text.
    const literal = new RegExp(`['"\`]${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"\`]`, 'g');
    const places = sources.flatMap((source) => {
      const count = source.text.match(literal)?.length ?? 0;
      return count > 0 ? [`${source.file} (${count})`] : [];
    });
    // Derived entries (nameTooLong = tooLong(24)) have no literal at all.
    expect(places.length, places.join(', ')).toBeLessThanOrEqual(1);
  });
});
