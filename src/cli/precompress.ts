/**
 * npm run build, last step: writes a Brotli (.br) and a gzip (.gz) copy beside each built asset
 * worth compressing, made once at the highest levels, so the server sends them as they are
 * (@fastify/static preCompressed) and spends no CPU per request. A copy that would not be smaller
 * is not written.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const assetsDir = new URL('../../dist/client/assets/', import.meta.url).pathname;
const COMPRESSIBLE = new Set(['.js', '.css', '.svg', '.json', '.txt', '.map']);
// Below this a compressed copy saves less than its own headers cost.
const MIN_BYTES = 1024;

function precompress(file: string): { original: number; br: number; gz: number } | null {
  const content = readFileSync(file);
  if (content.length < MIN_BYTES) return null;
  const br = brotliCompressSync(content, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
  });
  const gz = gzipSync(content, { level: 9 });
  if (br.length < content.length) writeFileSync(`${file}.br`, br);
  if (gz.length < content.length) writeFileSync(`${file}.gz`, gz);
  return { original: content.length, br: br.length, gz: gz.length };
}

const totals = { files: 0, original: 0, br: 0, gz: 0 };
for (const name of readdirSync(assetsDir)) {
  const file = join(assetsDir, name);
  if (!statSync(file).isFile() || !COMPRESSIBLE.has(extname(name))) continue;
  const sizes = precompress(file);
  if (!sizes) continue;
  totals.files += 1;
  totals.original += sizes.original;
  totals.br += sizes.br;
  totals.gz += sizes.gz;
}
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`precompressed ${totals.files} assets: ${kb(totals.original)} → brotli ${kb(totals.br)}, gzip ${kb(totals.gz)}`);
