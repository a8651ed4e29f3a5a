import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { assertFlowsValid, repositoryRoot } from '../../src/server/flows/check.js';

/**
 * The check the server runs at start (src/server/main.ts) on the folder FLOWS_DIR names: a broken
 * flow stops the start with file, line and JSON path; the shipped folder passes with both flows.
 */
const copies: string[] = [];

/** A FLOWS_DIR copy of the shipped flows, with `edit` applied to one file's text. */
function flowsCopy(file: string, edit: (text: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), 'flows-start-'));
  copies.push(dir);
  cpSync(join(repositoryRoot, 'flows'), dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, edit(readFileSync(path, 'utf8')));
  return dir;
}

/** 1-based line of the first occurrence of `needle` in `text`. */
function lineOf(text: string, needle: string): number {
  const index = text.indexOf(needle);
  if (index < 0) throw new Error(`${needle} is not in the text`);
  return text.slice(0, index).split('\n').length;
}

function thrownMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('expected a throw');
}

afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('assertFlowsValid at server start', () => {
  it('refuses a FLOWS_DIR copy with a misspelt transition target, naming file, line and JSON path', () => {
    const shipped = '"onDone": "complete"';
    const dir = flowsCopy('child.json', (text) => text.replace(shipped, '"onDone": "compelte"'));
    const config = loadConfig({ FLOWS_DIR: dir });
    expect(config.flowsDir).toBe(dir);

    const brokenFile = join(dir, 'child.json');
    const line = lineOf(readFileSync(brokenFile, 'utf8'), '"onDone": "compelte"');
    const [heading, ...problems] = thrownMessage(() => assertFlowsValid(config.flowsDir)).split('\n');
    expect(heading).toBe('the flow files are invalid:');
    // Exactly one problem, in the edited file only (general.json is untouched).
    expect(problems).toHaveLength(1);
    const [problem = ''] = problems;
    expect(problem.startsWith(`${brokenFile}:${line} /states/redirect/invoke/onDone: `)).toBe(true);
    expect(problem).toContain('transition target "compelte" does not exist');
    expect(problem).toMatch(/Did you mean "complete"\?$/);
  });

  it('returns both flows, parsed, for the shipped folder (the default FLOWS_DIR)', () => {
    const config = loadConfig({});
    const result = assertFlowsValid(config.flowsDir);
    expect(result.problems).toEqual([]);
    expect(result.flows.map((flow) => flow.id).sort()).toEqual(['child', 'general']);
    const child = result.flows.find((flow) => flow.id === 'child');
    expect(child?.states.redirect?.meta?.path).toBe('/child/redirect');
    expect(result.summary).toHaveLength(2);
  });
});
