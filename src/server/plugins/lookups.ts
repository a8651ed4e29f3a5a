import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { sharedFuriganaReader, type FuriganaReader } from '../furigana/index.js';
import { jpostalVersion, PostalLookup } from '../postal/index.js';

export interface LookupsOptions {
  /** Default: a PostalLookup over the installed jquery-jpostal-ja. */
  postal?: PostalLookup;
  /** Default: the process's shared reader over the installed kuromoji dictionary. */
  furigana?: FuriganaReader;
}

/**
 * Decorates `app.postal` (postal code -> address candidates) and `app.furigana` (kanji ->
 * kana). Both read files shipped in node_modules and keep what they read in memory.
 *
 * The furigana dictionary takes about a second of CPU to load, so it starts loading as soon
 * as the server listens, in the background: the server answers at once, and by the time the
 * first applicant has verified their mail address and typed a name it is ready. Servers that
 * never listen (tests driving app.inject) load it only when a test first asks.
 */
const lookups: FastifyPluginAsync<LookupsOptions> = async (app, options) => {
  const postal = options.postal ?? new PostalLookup();
  const furigana = options.furigana ?? sharedFuriganaReader();
  app.decorate('postal', postal);
  app.decorate('furigana', furigana);
  app.log.info({ jpostal: jpostalVersion() }, 'postal data');

  app.addHook('onListen', async () => {
    if (furigana.ready) return;
    const started = performance.now();
    // Not awaited: listening must not wait for the dictionary.
    furigana.warm().then(
      () => app.log.info({ ms: Math.round(performance.now() - started) }, 'furigana dictionary ready'),
      (error: unknown) => app.log.error({ err: error }, 'furigana dictionary failed to load; retried on the first request'),
    );
  });
};

export default fp(lookups, { name: 'lookups', fastify: '5.x' });
