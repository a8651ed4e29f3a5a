/**
 * Prints the gzip size of the JavaScript the landing page (/term) loads and of the whole app,
 * read from the Vite manifest of the last build (run `npm run build` first). Budget: /term at
 * most 120 KB gzip; the form stack must stay out of the landing page's chunks.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
  src?: string;
}

const dist = new URL('../dist/client/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
const gzipSize = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;

/** A chunk and every chunk it imports statically: what the browser must fetch before running it. */
function staticClosure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) staticClosure(dep, seen);
  return seen;
}

const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
const termKey = Object.keys(manifest).find((key) => key.endsWith('screens/GeneralTerm.tsx'));
if (!entryKey || !termKey) throw new Error('manifest lacks the entry or the GeneralTerm chunk: run npm run build');

const termChunks = new Set([...staticClosure(entryKey), ...staticClosure(termKey)]);
const termFiles = [...termChunks].map((key) => manifest[key]?.file).filter((f): f is string => Boolean(f?.endsWith('.js')));
const termBytes = termFiles.reduce((sum, file) => sum + gzipSize(file), 0);
const allFiles = readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js')).map((f) => `assets/${f}`);
const allBytes = allFiles.reduce((sum, file) => sum + gzipSize(file), 0);
const formStackOnTerm = termFiles.some((file) => /rjsf|SchemaForm|validator/i.test(file));

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`JS loaded by /term : ${kb(termBytes)} gzip in ${termFiles.length} files (budget 120 KB) ${termBytes <= 120 * 1024 ? 'OK' : 'OVER BUDGET'}`);
console.log(`whole app JS       : ${kb(allBytes)} gzip in ${allFiles.length} files`);
console.log(`ratio /term : app  : ${(termBytes / allBytes).toFixed(2)}`);
console.log(`form stack on /term: ${formStackOnTerm ? 'yes (should not be)' : 'no'}`);
