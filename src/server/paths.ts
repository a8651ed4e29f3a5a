import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root, where flows/, schemas/, banks/ and dist/ are found: the nearest
 * folder above this module with our package.json. Found by looking, not by counting `../`,
 * because the same code runs from src/server (tsx, tests) and bundled from dist/server
 * (npm start).
 */
function findRepositoryRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === 'kouza-web') return dir;
    if (dirname(dir) === dir) throw new Error(`no kouza-web package.json above ${start}`);
  }
}

export const repositoryRoot = findRepositoryRoot(dirname(fileURLToPath(import.meta.url)));
