import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pages from '../../src/server/plugins/pages.js';
import { hostOf, startTestServer, type TestServer } from './helpers.js';

/**
 * What goes over the wire for the built pages: the hashed assets as the build compressed them
 * (src/cli/precompress.ts), the page shell compressed once per bank, each in the encoding the
 * browser prefers, and always with Vary: Accept-Encoding so no cache hands one to the other.
 */
describe('compressed pages and assets', () => {
  let distDir: string;
  let server: TestServer;
  const script = `export const words = ${JSON.stringify('口座開設'.repeat(500))};\n`;

  beforeAll(async () => {
    distDir = await mkdtemp(path.join(tmpdir(), 'kouza-dist-'));
    await mkdir(path.join(distDir, 'assets'));
    await writeFile(path.join(distDir, 'index.html'), '<!doctype html><html><head><title>口座開設のお申込み</title><!--client-settings--></head><body></body></html>');
    await writeFile(path.join(distDir, 'assets', 'main-abc123.js'), script);
    await writeFile(path.join(distDir, 'assets', 'main-abc123.js.br'), brotliCompressSync(script));
    await writeFile(path.join(distDir, 'assets', 'main-abc123.js.gz'), gzipSync(script));
    server = await startTestServer(
      { name: 'pglite' },
      { pages: async (instance) => instance.register(pages, { distDir, flows: [], analyticsMeasurementId: null, ekycPollIntervalMs: null, session: { idleMs: 1_800_000, warningMs: 120_000 }, production: false }) },
    );
  });
  afterAll(async () => {
    await server.close();
    await rm(distDir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    server.app.inject({ method: 'GET', url, headers: { host: hostOf(server, '0177'), ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) } });

  it('sends an asset as Brotli, as gzip or as it is, by Accept-Encoding', async () => {
    const br = await get('/assets/main-abc123.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(Buffer.byteLength(script) / 10);

    const gz = await get('/assets/main-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(script);

    const plain = await get('/assets/main-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('sends the page shell compressed the same way, the same page whichever the encoding', async () => {
    const plain = await get('/term');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body).toContain('口座開設のお申込み | ');

    const br = await get('/term', 'br;q=1, gzip;q=0.5');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('no-store');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(Buffer.byteLength(plain.body));

    const gz = await get('/child/before-check', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(plain.body);
  });
});
