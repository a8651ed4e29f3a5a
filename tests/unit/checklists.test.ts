import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  CHECKLIST_PLACEHOLDERS,
  checklistPlaceholders,
  checklistProgress,
  checklistSteps,
  fillChecklistText,
  type Checklist,
  type ChecklistAnswers,
} from '../../src/domain/checklist.js';
import { messages } from '../../src/domain/messages.js';
import { checklistProblems } from '../../src/server/flows/checklists.js';

/**
 * checklists/*.json are data a product owner edits: each must follow checklists/checklist.schema.json,
 * name only links every bank has, only plain-text messages of the catalogue and only known
 * placeholders, and give each item its own id.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = join(root, 'checklists');
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

const files = readdirSync(dir)
  .filter((name) => name.endsWith('.json') && name !== 'checklist.schema.json')
  .map((name) => ({ name, data: readJson(join(dir, name)) }));

const bankLinks = readdirSync(join(root, 'banks'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => {
    const bank = readJson(join(root, 'banks', entry.name, 'bank.json')) as { links: Record<string, string> };
    return { code: entry.name, links: Object.keys(bank.links) };
  });

const validate = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true }).compile(readJson(join(dir, 'checklist.schema.json')) as object);

function linksOf(checklist: Checklist): string[] {
  return checklist.items.flatMap((item) => [
    ...(item.body ?? []).flatMap((block) => (block.kind === 'link' ? [block.link] : block.kind === 'regulationDocuments' ? ['webRegulations'] : [])),
    ...(item.kind === 'gate' && item.blocking.link ? [item.blocking.link.link] : []),
  ]);
}

function textsOf(checklist: Checklist): string[] {
  const texts: string[] = [checklist.hint, ...(checklist.heading ? [checklist.heading] : []), ...(checklist.lead ? [checklist.lead] : [])];
  for (const item of checklist.items) {
    if (item.kind === 'acknowledgement') texts.push(item.title, item.check);
    else texts.push(item.question, ...(item.yesLabel ? [item.yesLabel] : []), ...(item.noLabel ? [item.noLabel] : []));
    if (item.kind === 'gate') {
      if ('text' in item.blocking) texts.push(item.blocking.text);
      if (item.blocking.link) texts.push(item.blocking.link.label);
    }
    for (const block of item.body ?? []) {
      if (block.kind === 'paragraph' || block.kind === 'note') texts.push(block.text);
      if (block.kind === 'link') texts.push(block.label);
      if (block.kind === 'list')
        for (const entry of block.items) texts.push(...(typeof entry === 'string' ? [entry] : [entry.text, ...(entry.note ? [entry.note] : []), ...(entry.items ?? [])]));
    }
  }
  return texts;
}

describe('checklists/*.json', () => {
  it('follow checklists/checklist.schema.json (the flow lint checks it at build and start)', () => {
    expect(checklistProblems(dir)).toEqual([]);
  });

  it('has the three landing checklists', () => {
    expect(files.map((file) => file.name).sort()).toEqual(['child-before-check.json', 'child-term.json', 'general-term.json']);
  });

  describe.each(files)('$name', ({ data }) => {
    const checklist = data as Checklist;


    it.each(bankLinks)('names only links that bank $code has', ({ links }) => {
      expect(linksOf(checklist).filter((key) => !links.includes(key))).toEqual([]);
    });

    it('names only plain-text messages of src/domain/messages.ts', () => {
      const keys = checklist.items.flatMap((item) => (item.kind === 'gate' && 'message' in item.blocking ? [item.blocking.message as string] : []));
      const catalogue: Record<string, unknown> = messages;
      expect(keys.filter((key) => typeof catalogue[key] !== 'string')).toEqual([]);
    });

    it('uses only known placeholders', () => {
      const used = textsOf(checklist).flatMap((text) => [...text.matchAll(/\{([^}]*)\}/g)].map((match) => match[1] ?? ''));
      expect(used.filter((name) => !(CHECKLIST_PLACEHOLDERS as readonly string[]).includes(name))).toEqual([]);
    });

    it('gives each item its own id and starts with an item of its own', () => {
      const ids = checklist.items.map((item) => item.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(checklist.items[0]?.withPrevious).not.toBe(true);
    });
  });

  it.each(bankLinks)("lists exactly the links of bank $code as the schema's link keys", ({ links }) => {
    const schema = readJson(join(dir, 'checklist.schema.json')) as { definitions: { linkKey: { enum: string[] } } };
    expect([...schema.definitions.linkKey.enum].sort()).toEqual([...links].sort());
  });

  it('are refused by the lint with file, line and JSON path when broken', () => {
    const copy = mkdtempSync(join(tmpdir(), 'checklists-'));
    cpSync(dir, copy, { recursive: true });
    const file = join(copy, 'general-term.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"kind": "gate"', '"kind": "question"'));
    const problems = checklistProblems(copy);
    rmSync(copy, { recursive: true, force: true });
    expect(problems[0]).toMatchObject({ file: expect.stringMatching(/general-term\.json$/), pointer: '/items/0/kind', line: expect.any(Number) });
    expect(problems[0]?.line).toBeGreaterThan(1);
  });

  it('refuses an unknown kind, a link to no bank page and a gate without its message', () => {
    const broken = {
      hint: 'h',
      items: [
        { kind: 'question', id: 'a', question: 'q' },
        { kind: 'choice', id: 'b', question: 'q', body: [{ kind: 'link', link: 'nowhere', label: 'l' }] },
        { kind: 'gate', id: 'c', question: 'q' },
      ],
    };
    expect(validate(broken)).toBe(false);
    const paths = (validate.errors ?? []).map((error) => error.instancePath);
    expect(paths).toEqual(expect.arrayContaining(['/items/0/kind', '/items/1/body/0/link', '/items/2']));
  });
});

const sample: Checklist = {
  hint: 'hint',
  items: [
    { kind: 'gate', id: 'a', question: 'A?', blocking: { text: 'no A' } },
    { kind: 'gate', id: 'b', question: 'B?', blocking: { message: 'regulationsDisagreed' } },
    { kind: 'gate', id: 'c', withPrevious: true, question: 'C?', blocking: { message: 'regulationsDisagreed' } },
    { kind: 'choice', id: 'd', question: 'D?' },
    { kind: 'acknowledgement', id: 'e', title: 'E', check: 'ok' },
  ],
};
const progress = (answers: ChecklistAnswers) => {
  const { revealed, blockedBy, complete } = checklistProgress(sample, answers);
  return { revealed, blockedBy: blockedBy.map((gate) => gate.id), complete };
};

describe('checklistProgress', () => {
  it('groups an item marked withPrevious into the step before it', () => {
    expect(checklistSteps(sample).map((step) => step.map((item) => item.id))).toEqual([['a'], ['b', 'c'], ['d'], ['e']]);
  });

  it('shows the first step only at the start', () => {
    expect(progress({})).toEqual({ revealed: 1, blockedBy: [], complete: false });
  });

  it('reveals the next step once every item of a step is done', () => {
    expect(progress({ a: 'yes' })).toEqual({ revealed: 2, blockedBy: [], complete: false });
    expect(progress({ a: 'yes', b: 'yes' })).toEqual({ revealed: 2, blockedBy: [], complete: false });
    expect(progress({ a: 'yes', b: 'yes', c: 'yes' })).toEqual({ revealed: 3, blockedBy: [], complete: false });
  });

  it("blocks at a gate answered 'no' and hides what follows, whatever was answered later", () => {
    expect(progress({ a: 'no', b: 'yes', c: 'yes', d: 'no', e: true })).toEqual({ revealed: 1, blockedBy: ['a'], complete: false });
    expect(progress({ a: 'yes', b: 'no', c: 'no' })).toEqual({ revealed: 2, blockedBy: ['b', 'c'], complete: false });
    expect(progress({ a: 'yes', b: 'yes', c: 'no' })).toEqual({ revealed: 2, blockedBy: ['c'], complete: false });
  });

  it('accepts either choice but needs one, then needs the box ticked', () => {
    const gates = { a: 'yes', b: 'yes', c: 'yes' } as const;
    expect(progress({ ...gates, d: 'no' })).toEqual({ revealed: 4, blockedBy: [], complete: false });
    expect(progress({ ...gates, d: 'no', e: false })).toEqual({ revealed: 4, blockedBy: [], complete: false });
    expect(progress({ ...gates, d: 'yes', e: true })).toEqual({ revealed: 4, blockedBy: [], complete: true });
  });

  it.each(files)('$name: every item answered positively completes it; a "no" at any gate hides the steps after it', ({ data }) => {
    const checklist = data as Checklist;
    const positive: Record<string, 'yes' | true> = Object.fromEntries(checklist.items.map((item) => [item.id, item.kind === 'acknowledgement' ? true : 'yes']));
    const steps = checklistSteps(checklist);
    expect(checklistProgress(checklist, positive)).toMatchObject({ revealed: steps.length, blockedBy: [], complete: true });
    steps.forEach((step, index) => {
      for (const gate of step.filter((item) => item.kind === 'gate')) {
        const progress = checklistProgress(checklist, { ...positive, [gate.id]: 'no' });
        expect(progress).toMatchObject({ revealed: index + 1, complete: false });
        expect(progress.blockedBy.map((item) => item.id)).toEqual([gate.id]);
      }
    });
  });
});

describe('checklist texts', () => {
  it('fills {bankName} and {areaPrefectures} from the bank and leaves other braces', () => {
    const values = checklistPlaceholders({ NAME: '熊本銀行', homePrefecture: '熊本県', neighbouringPrefectures: ['福岡県', '大分県'] });
    expect(fillChecklistText('{bankName}：{areaPrefectures}{other}', values)).toBe('熊本銀行：熊本県・福岡県・大分県{other}');
  });
});
