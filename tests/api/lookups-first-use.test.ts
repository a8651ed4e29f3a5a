import { describe, expect, it } from 'vitest';
import { hostOf, signIn, startTestServer } from './helpers.js';

/**
 * ADR 0026: a listening server holds no furigana dictionary (some 300 MB) until a request
 * needs it. The wait is longer than the dictionary takes to load on this machine, so a server
 * that still loaded it in the background after listening would be found ready.
 */
describe('lookups load on first use', () => {
  it('a listening server builds the furigana dictionary only when a request asks for a reading', async () => {
    const server = await startTestServer({ name: 'pglite' });
    try {
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(server.app.furigana.ready).toBe(false);
      const token = await signIn(server);
      const response = await server.app.inject({
        method: 'GET',
        url: `/api/furigana?kanji=${encodeURIComponent('山田')}`,
        headers: { host: hostOf(server, '0177'), authorization: `Bearer ${token}` },
      });
      expect(response.json()).toEqual({ kana: 'ﾔﾏﾀﾞ' });
      expect(server.app.furigana.ready).toBe(true);
    } finally {
      await server.close();
    }
  });
});
