import type { FastifyPluginAsync } from 'fastify';
import { messages } from '../../domain/messages.js';
import { normalizeDigits } from '../../domain/rules/index.js';
import { FURIGANA_MAX_LENGTH } from '../furigana/index.js';
import { requireSignedIn } from '../plugins/auth.js';
import { POSTAL_NUMBER } from '../postal/index.js';

interface AddressesQuery {
  postalNumber?: unknown;
}

interface FuriganaQuery {
  kanji?: unknown;
}

/**
 * The two lookups of the /personal form (spec section 7), for signed-in applicants only: they
 * cost the server memory and CPU, and the page needs them only after e-mail verification.
 *
 * GET /api/addresses?postalNumber=NNNNNNN -> { addressList: AddressCandidate[] } (every
 *   candidate; [] when the code is unused); 400 unless 7 digits (full-width digits and a
 *   hyphen, as a phone keyboard may send them, are accepted).
 * GET /api/furigana?kanji=… -> { kana } in half-width katakana; 400 when empty or longer
 *   than 20 characters (the page does not ask for those).
 */
const lookupRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Querystring: AddressesQuery }>('/addresses', { preHandler: requireSignedIn }, async (request, reply) => {
    const raw = request.query.postalNumber;
    const postalNumber = typeof raw === 'string' ? normalizeDigits(raw.trim()).replace(/^(\d{3})-(\d{4})$/, '$1$2') : '';
    if (!POSTAL_NUMBER.test(postalNumber)) return reply.code(400).send({ message: messages.searchAddress });
    return { addressList: await app.postal.find(postalNumber) };
  });

  app.get<{ Querystring: FuriganaQuery }>('/furigana', { preHandler: requireSignedIn }, async (request, reply) => {
    const raw = request.query.kanji;
    const kanji = typeof raw === 'string' ? raw.trim() : '';
    // Code points, like the form's own count: 𠮷 is one character.
    if (kanji === '' || [...kanji].length > FURIGANA_MAX_LENGTH) {
      return reply.code(400).send({ message: messages.badRequest });
    }
    return { kana: await app.furigana.read(kanji) };
  });
};

export default lookupRoutes;
