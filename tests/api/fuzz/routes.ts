import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { FlowConfig } from '../../../src/domain/flow/types.js';
import { flowVersionOf } from '../../../src/server/flows/version.js';
import { validBodies } from '../application-fixtures.js';
import { describeFlow } from '../../../src/domain/flow/model.js';
import { formFor } from '../../../src/domain/forms/flow-forms.js';
import { sampleAnswers } from '../../../src/flow-tools/samples.js';
import { formSteps, loadFormCatalogue } from '../../../src/server/forms/catalogue.js';
import { defaultSchemasDir } from '../../../src/server/validation.js';
import { encodeLoose } from './arbitraries.js';

/**
 * Every route the fuzz test sends to: the API of spec section 7 and the routes we added (eKYC
 * callback, the simulator's pages, the development outbox and bank receiver). `who` is the applicant whose token
 * the request carries, in the state where the route does real work; `input` what the route
 * reads besides a query. The test fails when the app has a route that is not listed here.
 */

export type Who = 'none' | 'fresh' | 'child' | 'pinned' | 'childPinned';

export type Input =
  | { kind: 'none' }
  | { kind: 'json'; valid: (context: FuzzContext) => Record<string, unknown> }
  | { kind: 'multipart'; type: string }
  | { kind: 'form'; valid: Record<string, string> };

export interface FuzzRoute {
  method: 'GET' | 'POST';
  /** The route pattern as Fastify prints it. */
  route: string;
  /** The URL, given the context (path parameters filled in; fuzzed where `pathParam` says). */
  url: (context: FuzzContext, pathParam: string | null) => string;
  /** Whether the path parameter is fuzzed (else url() gets null and uses a valid value). */
  fuzzPathParam?: boolean;
  who: Who;
  query?: string[];
  input: Input;
}

export interface FuzzContext {
  addressCode: string;
  parentBirthday: string;
  /** The pinned applicant's simulator session path (/ekyc-simulator/sessions/<id>). */
  simulatorPath: string;
}

const fixed = (path: string) => () => path;

/** The shipped general flow's version: the server keeps it while it serves it. */
const shippedGeneralVersion = flowVersionOf(JSON.parse(readFileSync(new URL('../../../flows/general.json', import.meta.url), 'utf8')) as FlowConfig);
/** The pinned applicant's simulator session, or a fuzzed session id. */
const simulatorSession = (context: FuzzContext, param: string | null) =>
  param === null ? context.simulatorPath : `/ekyc-simulator/sessions/${encodeLoose(param)}`;
const none: Input = { kind: 'none' };

/** A route that takes a verification code: verify, and resume (the same body). */
function codeRoute(route: string): FuzzRoute {
  return {
    method: 'POST',
    route,
    url: fixed(route),
    who: 'none',
    input: {
      kind: 'json',
      valid: () => ({
        bankCode: '0177',
        mailAddress: 'fuzz@example.com',
        applicationType: 'GENERAL',
        verificationCode: '123456',
        channel: 'web',
        deviceId: '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
      }),
    },
  };
}

/** The routes listed by hand below: the spec's API and ours. */
const listedRoutes: FuzzRoute[] = [
  { method: 'GET', route: '/api/maintenance', url: fixed('/api/maintenance'), who: 'none', input: none },
  {
    method: 'GET',
    route: '/api/notifications/:bankCode',
    url: (_context, param) => `/api/notifications/${encodeLoose(param ?? '0177')}`,
    fuzzPathParam: true,
    who: 'none',
    input: none,
  },
  {
    method: 'GET',
    route: '/api/flows/:version',
    url: (_context, param) => `/api/flows/${encodeLoose(param ?? shippedGeneralVersion)}`,
    fuzzPathParam: true,
    who: 'none',
    input: none,
  },
  {
    method: 'POST',
    route: '/api/verification-codes/register',
    url: fixed('/api/verification-codes/register'),
    who: 'none',
    input: { kind: 'json', valid: () => ({ bankCode: '0177', mailAddress: 'fuzz@example.com', applicationType: 'GENERAL' }) },
  },
  codeRoute('/api/verification-codes/verify'),
  codeRoute('/api/verification-codes/resume'),
  { method: 'GET', route: '/api/applications', url: fixed('/api/applications'), who: 'fresh', input: none },
  { method: 'POST', route: '/api/session/extend', url: fixed('/api/session/extend'), who: 'fresh', input: none },
  { method: 'POST', route: '/api/applications/save-for-later', url: fixed('/api/applications/save-for-later'), who: 'fresh', input: none },
  {
    method: 'POST',
    route: '/api/applications/personal',
    url: fixed('/api/applications/personal'),
    who: 'fresh',
    input: { kind: 'json', valid: (context) => validBodies.personal(context.addressCode) },
  },
  {
    method: 'POST',
    route: '/api/applications/personal/parent',
    url: fixed('/api/applications/personal/parent'),
    who: 'child',
    input: { kind: 'json', valid: (context) => validBodies.parent(context.parentBirthday) },
  },
  {
    method: 'POST',
    route: '/api/applications/workplace',
    url: fixed('/api/applications/workplace'),
    who: 'fresh',
    input: { kind: 'json', valid: () => validBodies.workplace() },
  },
  {
    method: 'POST',
    route: '/api/applications/workplace/parent',
    url: fixed('/api/applications/workplace/parent'),
    who: 'child',
    input: { kind: 'json', valid: () => validBodies.parentWorkplace() },
  },
  {
    method: 'POST',
    route: '/api/applications/branch',
    url: fixed('/api/applications/branch'),
    who: 'fresh',
    input: { kind: 'json', valid: () => ({ branchCode: '001' }) },
  },
  {
    method: 'POST',
    route: '/api/applications/seal-less',
    url: fixed('/api/applications/seal-less'),
    who: 'fresh',
    input: { kind: 'json', valid: () => ({ sealLess: true }) },
  },
  { method: 'POST', route: '/api/application-complete', url: fixed('/api/application-complete'), who: 'pinned', input: none },
  { method: 'GET', route: '/api/addresses', url: fixed('/api/addresses'), who: 'fresh', query: ['postalNumber'], input: none },
  { method: 'GET', route: '/api/furigana', url: fixed('/api/furigana'), who: 'fresh', query: ['kanji'], input: none },
  { method: 'GET', route: '/api/occupations', url: fixed('/api/occupations'), who: 'fresh', input: none },
  { method: 'GET', route: '/api/workplace', url: fixed('/api/workplace'), who: 'fresh', query: ['code'], input: none },
  { method: 'GET', route: '/api/invitation', url: fixed('/api/invitation'), who: 'fresh', query: ['code'], input: none },
  { method: 'GET', route: '/api/branch', url: fixed('/api/branch'), who: 'fresh', input: none },
  { method: 'GET', route: '/api/public-key', url: fixed('/api/public-key'), who: 'fresh', input: none },
  {
    method: 'POST',
    route: '/api/pin',
    url: fixed('/api/pin'),
    who: 'fresh',
    input: { kind: 'json', valid: () => ({ code: 'QUJD', keyId: '0123456789abcdef' }) },
  },
  {
    method: 'POST',
    route: '/api/ekyc',
    url: fixed('/api/ekyc'),
    who: 'pinned',
    input: { kind: 'json', valid: () => ({ supplement: false, applicationType: 'GENERAL' }) },
  },
  { method: 'GET', route: '/api/ekyc', url: fixed('/api/ekyc'), who: 'pinned', input: none },
  { method: 'POST', route: '/api/ekyc/status', url: fixed('/api/ekyc/status'), who: 'pinned', input: none },
  {
    method: 'POST',
    route: '/api/ekyc/callback',
    url: fixed('/api/ekyc/callback'),
    who: 'none',
    input: { kind: 'json', valid: () => ({ sessionId: 'sim-1', status: 'APPROVED', supplement: false }) },
  },
  { method: 'POST', route: '/api/documents', url: fixed('/api/documents'), who: 'childPinned', input: { kind: 'multipart', type: 'INDIVIDUAL_NUMBER_CARD' } },
  {
    method: 'GET',
    route: '/ekyc-simulator/sessions/:sessionId',
    url: simulatorSession,
    fuzzPathParam: true,
    who: 'none',
    input: none,
  },
  {
    method: 'POST',
    route: '/ekyc-simulator/sessions/:sessionId/decision',
    url: (context, param) => `${simulatorSession(context, param)}/decision`,
    fuzzPathParam: true,
    who: 'none',
    input: { kind: 'form', valid: { outcome: 'pending' } },
  },
  // The JPKI method's redirect_uri: the provider's answer through the browser (an unknown state leads to the error page).
  { method: 'GET', route: '/api/ekyc/oidc/callback', url: fixed('/api/ekyc/oidc/callback'), who: 'none', query: ['state', 'code', 'iss', 'error'], input: none },
  {
    method: 'GET',
    route: '/oidc-provider/interaction/:uid',
    url: (_context, param) => `/oidc-provider/interaction/${param === null ? 'none' : encodeLoose(param)}`,
    fuzzPathParam: true,
    who: 'none',
    input: none,
  },
  {
    method: 'POST',
    route: '/oidc-provider/interaction/:uid',
    url: (_context, param) => `/oidc-provider/interaction/${param === null ? 'none' : encodeLoose(param)}`,
    fuzzPathParam: true,
    who: 'none',
    input: { kind: 'form', valid: { identity: 'self' } },
  },
  { method: 'GET', route: '/dev/outbox', url: fixed('/dev/outbox'), who: 'none', query: ['to'], input: none },
  { method: 'GET', route: '/dev/outbox.json', url: fixed('/dev/outbox.json'), who: 'none', query: ['to'], input: none },
  { method: 'GET', route: '/dev/bank-receiver', url: fixed('/dev/bank-receiver'), who: 'none', input: none },
  { method: 'GET', route: '/dev/bank-receiver.json', url: fixed('/dev/bank-receiver.json'), who: 'none', input: none },
  {
    method: 'POST',
    route: '/dev/bank-receiver/:bankCode',
    url: (_context, param) => `/dev/bank-receiver/${param === null ? '0177' : encodeLoose(param)}`,
    fuzzPathParam: true,
    who: 'none',
    input: { kind: 'json', valid: () => ({ format: 'kouza-application/1', applicationId: '00000000-0000-4000-8000-000000000000' }) },
  },
];

/**
 * A form step of schemas/ not listed above (one a product owner added): posted at its path by
 * an applicant whose flow asks it, its valid body the sample answers of its schema
 * (src/flow-tools/samples.ts).
 */
function formStepRoutes(listed: readonly FuzzRoute[]): FuzzRoute[] {
  const known = new Set(listed.map((route) => route.route));
  const flows = ['general', 'child'].map((id) => JSON.parse(readFileSync(new URL(`../../../flows/${id}.json`, import.meta.url), 'utf8')) as FlowConfig);
  return formSteps(loadFormCatalogue(defaultSchemasDir)).flatMap((form) => {
    const route = `/api${form.step?.post ?? ''}`;
    const flow = flows.find((candidate) => describeFlow(candidate).pages.some((page) => page.forms.includes(form.name)));
    if (known.has(route) || !flow) return [];
    const asked = formFor(form.schema, flow.id);
    const context = { applicationType: flow.meta.applicationType, bank: fuzzBank, today: new Date(), saved: {} };
    return [{ method: 'POST', route, url: fixed(route), who: flow.meta.applicationType === 'CHILD' ? 'child' : 'fresh', input: { kind: 'json', valid: () => sampleAnswers(asked, 'asks', context).answers } } satisfies FuzzRoute];
  });
}

/** The bank the fuzzed applicants apply at, as the samples read it. */
const fuzzBank = { code: '0177', distanceTransactionReasonRequired: true, homePrefecture: '福岡県', UTILIZATION_PURPOSE_LIST: [{ value: 'LIVING' }, { value: 'OTHER' }] };

export const fuzzRoutes: FuzzRoute[] = [...listedRoutes, ...formStepRoutes(listedRoutes)];

/**
 * The stand-in OpenID provider's pass-through (`/oidc-provider/*`, every method), printed by
 * Fastify as "*": oidc-provider's own protocol endpoints, a third party's surface that answers
 * in OAuth's English error codes, exercised by the OpenID Connect tests instead.
 */
export const isStandinPassThrough = (route: string): boolean => /^[A-Z]+ \*$/.test(route);

/** The app's routes as "METHOD /pattern" (HEAD left out: Fastify adds it to every GET). */
export function registeredRoutes(app: FastifyInstance): string[] {
  const found: string[] = [];
  const stack: { depth: number; path: string }[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^(?<indent>[│ ]*)[├└]── (?<path>\S+)(?: \((?<methods>[^)]*)\))?/u.exec(line);
    if (!match?.groups) continue;
    const depth = [...(match.groups.indent ?? '')].length / 4;
    while (stack.length > depth) stack.pop();
    const path = (stack[stack.length - 1]?.path ?? '') + (match.groups.path ?? '');
    stack.push({ depth, path });
    for (const method of (match.groups.methods ?? '').split(', ').filter((m) => m && m !== 'HEAD')) found.push(`${method} ${path}`);
  }
  return found.sort();
}
