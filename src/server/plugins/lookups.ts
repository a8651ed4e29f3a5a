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
 * Neither is read at start. The furigana dictionary costs about a second of CPU and some
 * 300 MB of memory, the postal data a few MB per 3-digit file; both load on the first request
 * that needs them (concurrent first requests share one load) and then stay. Loading the
 * dictionary in the background once the server listened would make the first reading fast,
 * but would put those 300 MB into every idle process, over issue 13's 250 MB for a whole idle
 * server: docs/adr/0026-lookups-load-on-first-use.md.
 */
const lookups: FastifyPluginAsync<LookupsOptions> = async (app, options) => {
  const postal = options.postal ?? new PostalLookup();
  const furigana = options.furigana ?? sharedFuriganaReader();
  app.decorate('postal', postal);
  app.decorate('furigana', furigana);
  app.log.info({ jpostal: jpostalVersion() }, 'postal data');
};

export default fp(lookups, { name: 'lookups', fastify: '5.x' });
