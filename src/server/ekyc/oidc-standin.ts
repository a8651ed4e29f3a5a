import { createHash, createPublicKey } from 'node:crypto';
import Provider, { type Account, type KoaContextWithOIDC } from 'oidc-provider';
import { derivedEd25519Key, derivedKeyBytes } from '../crypto.js';
import type { Database } from '../db/index.js';
import { enteredAddress, type IdentityClaims } from './claims.js';
import { enteredAnswers, OIDC_CALLBACK_PATH } from './oidc.js';
import { standinStores } from './oidc-standin-store.js';
import { STANDIN_PREFIX } from './oidc-standin-routes.js';

/**
 * The stand-in OpenID provider shipped with the product (the JPKI method without
 * EKYC_OIDC_ISSUER; never in production), mounted under /oidc-provider: oidc-provider
 * configured like the Digital Agency's authentication app (code flow only, PKCE S256 required,
 * scopes name, address, birthdate, gender with the standard claims). Instead of reading a
 * My Number card, its interaction page lets the tester pick who is "on the card": the person
 * entered in the application (the claims built from the entry, written the way the register
 * writes them: kanji numerals, full-width space), or someone else.
 *
 * Any server process can serve any of its requests, and a restart loses nothing under way:
 * - its sessions, interactions, grants, codes and tokens are in the database (adapter
 *   oidc-standin-store.ts, table oidc_standin_store), not in oidc-provider's memory adapter;
 * - its ID-token signing key (Ed25519, EdDSA) and its cookie keys are derived from the server's
 *   pepper (DATA_DIR/secrets.json, which processes sharing a database share already) by HKDF,
 *   one purpose string each: every process signs and verifies with the same keys, and no key is
 *   stored anywhere;
 * - its issuer is the same string for all of them: the loopback address of the port they listen
 *   on (npm run start:cluster: one PORT), or EKYC_OIDC_STANDIN_ORIGIN when they are reached
 *   through another address.
 */


const otherPerson: Omit<IdentityClaims, 'sub'> = {
  name: '佐藤　一郎',
  family_name: '佐藤',
  given_name: '一郎',
  birthdate: '1975-05-05',
  gender: 'male',
  address: { formatted: '東京都千代田区霞が関一丁目1番1号' },
};

const kanjiDigits = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

/** 2-13-1 as the register writes it (二丁目13番1号); anything else as entered. */
function registerStyle(subAddress: string): string {
  const lot = /^(\d)-(\d+)-(\d+)$/u.exec(subAddress.normalize('NFKC'));
  return lot ? `${kanjiDigits[Number(lot[1])]}丁目${lot[2]}番${lot[3]}号` : subAddress;
}

/** The claims of the person entered in the application of RP session `sessionId`. */
async function enteredPerson(db: Database, sessionId: string): Promise<Omit<IdentityClaims, 'sub'>> {
  const { answers } = await enteredAnswers(db, sessionId);
  if (Object.keys(answers).length === 0) return otherPerson;
  const entered = answers as Record<string, string | undefined>;
  const subAddress = entered.subAddress ?? '';
  const main = enteredAddress({ ...entered, subAddress: '' });
  return {
    name: `${entered.lastName ?? ''}　${entered.firstName ?? ''}`,
    family_name: entered.lastName,
    given_name: entered.firstName,
    birthdate: entered.birthday,
    gender: entered.gender === 'MAN' ? 'male' : entered.gender === 'WOMAN' ? 'female' : 'other',
    // A parent enters no address (child flow): the card's address is then one of our choosing.
    address: { formatted: main ? `${main}${registerStyle(subAddress)}` : '福岡県福岡市中央区天神一丁目1番1号' },
  };
}


/** The ID-token signing key, a JWK derived from the pepper; its kid names the public key. */
function signingJwk(pepper: string) {
  const privateKey = derivedEd25519Key(pepper, 'kouza bank oidc stand-in signing key');
  const kid = createHash('sha256').update(createPublicKey(privateKey).export({ type: 'spki', format: 'der' })).digest('base64url').slice(0, 16);
  return { ...privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'EdDSA' };
}

export interface StandinSettings {
  /** …/oidc-provider, the same for every process. */
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  /** The server's pepper, from which the keys are derived. */
  pepper: string;
}

/** A stand-in provider for `issuer` (…/oidc-provider), its one client being this server. */
export function createStandin(db: Database, { issuer, clientId, clientSecret, pepper }: StandinSettings): Provider {
  const provider = new Provider(issuer, {
    adapter: standinStores(db),
    clients: [
      {
        client_id: clientId,
        ...(clientSecret === null ? { token_endpoint_auth_method: 'none' } : { client_secret: clientSecret }),
        // Any origin's /api/ekyc/oidc/callback (below): banks are served on their own hosts.
        redirect_uris: [`http://localhost${OIDC_CALLBACK_PATH}`],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        id_token_signed_response_alg: 'EdDSA',
      },
    ],
    responseTypes: ['code'],
    pkce: { required: () => true },
    scopes: ['openid', 'name', 'address', 'birthdate', 'gender'],
    claims: {
      openid: ['sub'],
      name: ['name', 'family_name', 'given_name'],
      address: ['address'],
      birthdate: ['birthdate'],
      gender: ['gender'],
    },
    jwks: { keys: [signingJwk(pepper)] },
    cookies: { keys: [derivedKeyBytes(pepper, 'kouza bank oidc stand-in cookie key').toString('base64url')] },
    features: { devInteractions: { enabled: false } },
    // Seconds (the rows' expiry in the store): a code for a minute, the card holder's choice
    // for ten, a session for an hour; tokens only for the one userinfo call after the exchange.
    ttl: { AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    interactions: { url: (_ctx, interaction) => `${STANDIN_PREFIX}/interaction/${interaction.uid}` },
    findAccount: async (_ctx: KoaContextWithOIDC, accountId: string): Promise<Account> => ({
      accountId,
      claims: async () => ({
        sub: accountId,
        ...(accountId.startsWith('self.') ? await enteredPerson(db, accountId.slice('self.'.length)) : otherPerson),
      }),
    }),
  });
  provider.Client.prototype.redirectUriAllowed = function allowed(value: string): boolean {
    try {
      const url = new URL(value);
      return url.pathname === OIDC_CALLBACK_PATH && url.search === '' && url.hash === '';
    } catch {
      return false;
    }
  };
  return provider;
}
