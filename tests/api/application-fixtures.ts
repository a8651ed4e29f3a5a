import { constants, createPublicKey, publicEncrypt, randomBytes, webcrypto } from 'node:crypto';
import { deflateSync, crc32 } from 'node:zlib';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { hashAuthToken } from '../../src/server/crypto.js';
import { storeDocument } from '../../src/server/forms/documents.js';
import { applications, authTokens } from '../../src/server/db/schema.js';
import { formFor } from '../../src/domain/forms/flow-forms.js';
import { sampleAnswers } from '../../src/flow-tools/samples.js';
import { applicant, codeFromOutbox, hostOf, register, signIn, type TestServer } from './helpers.js';

/**
 * Set-up shared by the PIN, eKYC, document and completion tests: an application whose steps
 * up to /confirmation are saved, the browser's PIN encryption (Web Crypto, as the page does
 * it), the simulator driven over HTTP, and images made byte by byte.
 */

export interface Signed {
  token: string;
  id: string;
  bankCode: string;
  applicationType: 'GENERAL' | 'CHILD';
}

export type Response = LightMyRequestResponse;

/** The personal step as stored (its document); the PIN rules look at it, PINs built from it must be refused. */
export const savedPersonal = {
  lastName: '山田',
  firstName: '花子',
  kanaLastName: 'ﾔﾏﾀﾞ',
  kanaFirstName: 'ﾊﾅｺ',
  gender: 'WOMAN' as const,
  birthday: '1990-05-01', // 平成2年
  eraBirthday: '平成2年5月1日',
  mobilePhoneNumber: '090-1357-2468',
  phoneNumber: '092-711-3690',
  postalNumber: '8100001',
  addressCode: '40133000001',
  addressPrefecture: '福岡県',
  addressMunicipality: '福岡市中央区',
  addressSection: '天神',
  addressChome: '１丁目',
  kanaAddressPrefecture: 'ﾌｸｵｶｹﾝ',
  kanaAddressMunicipality: 'ﾌｸｵｶｼﾁｭｳｵｳｸ',
  kanaAddressSection: 'ﾃﾝｼﾞﾝ',
  kanaAddressChome: '1ﾁｮｳﾒ',
  address: '福岡県福岡市中央区天神１丁目',
  kanaAddress: 'ﾌｸｵｶｹﾝﾌｸｵｶｼﾁｭｳｵｳｸﾃﾝｼﾞﾝ1ﾁｮｳﾒ',
  subAddress: '8-1 天神ビル203', // digits 1 8 1 203: first 1812, last 1203
  kanaSubAddress: '8-1 ﾃﾝｼﾞﾝﾋﾞﾙ207', // kana address digits: last 1207
  utilizationPurpose: ['LIVING'],
};

/** The workplace step as stored (its document); the PIN rules look at its phone too. */
export const savedWorkplace = {
  occupationId: 1,
  occupationName: '会社員',
  workplaceName: '株式会社テスト',
  workplacePhoneNumber: '096-325-4817',
};

/** Every step up to /confirmation as stored, by field name. */
export const savedSteps = { ...savedPersonal, ...savedWorkplace };

/** The answers of the generic engine's forms as stored (one document per form, migration 0005). */
export const savedDocuments: Record<string, Record<string, unknown>> = {
  workplace: savedWorkplace,
  branch: { branchCode: '001', branchName: '本店営業部' },
  sealLess: { sealLess: true },
};

/**
 * The parent of a child application as saved by /child/parent (same surnames as savedSteps).
 * The PIN rules look at their birthday and phones too; PINs built from these must be refused.
 */
export const savedParent = {
  lastName: '山田',
  firstName: '太郎',
  kanaLastName: 'ﾔﾏﾀﾞ',
  kanaFirstName: 'ﾀﾛｳ',
  birthday: '1965-08-17', // 昭和40年
  relationship: 'FATHER' as const,
  mobilePhoneNumber: '080-2468-9753',
  phoneNumber: '092-555-6420',
  proxyApplicationReason: 'MINOR' as const,
  occupationId: 1,
  occupationName: '会社員',
  workplaceName: '株式会社サンプル',
  workplacePhoneNumber: '092-401-3571',
};

/** A PIN no rule refuses for savedSteps (nor for savedParent). */
/** Request bodies the pages send, valid for bank 0177 (spec section 7); tests override fields. */
export const validBodies = {
  /** /personal: an address in Fukuoka (天神, 8100001); addressCode from GET /api/addresses. */
  personal: (addressCode: string): Record<string, unknown> => ({
    lastName: '山田',
    firstName: '花子',
    kanaLastName: 'ﾔﾏﾀﾞ',
    kanaFirstName: 'ﾊﾅｺ',
    birthday: '1990-01-15',
    gender: 'WOMAN',
    mobilePhoneNumber: '090-1234-5678',
    phoneNumber: null,
    noMatchingAddress: false,
    postalNumber: '8100001',
    addressCode,
    subAddress: '2-13-1',
    kanaSubAddress: '2-13-1',
    tempAddressPrefecture: null,
    tempAddress: null,
    kanaTempAddress: null,
    utilizationPurpose: ['LIVING', 'SALARY'],
    utilizationPurposeOther: null,
    distanceTransactionReason: null,
  }),
  /** /workplace: 会社員 (id 1) at a typed workplace. */
  workplace: (): Record<string, unknown> => ({
    occupationId: 1,
    occupationOther: null,
    workplaceName: 'テスト商事株式会社',
    workplacePhoneNumber: '092-123-4567',
    workplaceId: null,
    invitationCode: null,
    existedAccountBranchCode: null,
    existedAccountNumber: null,
  }),
  /** /child/parent: the child's father (pass a birthday 18 or more years ago). */
  parent: (birthday: string): Record<string, unknown> => ({
    bankCode: '0177',
    lastName: '山田',
    firstName: '太郎',
    kanaLastName: 'ﾔﾏﾀﾞ',
    kanaFirstName: 'ﾀﾛｳ',
    birthday,
    relationship: 'FATHER',
    mobilePhoneNumber: '080-1111-2222',
    phoneNumber: null,
    proxyApplicationReason: 'MINOR',
  }),
  parentWorkplace: (): Record<string, unknown> => ({
    occupationId: 1,
    occupationOther: null,
    workplaceName: 'テスト商事株式会社',
    workplacePhoneNumber: '092-123-4567',
  }),
};

export const GOOD_PIN = '2580';

export function headersOf(server: TestServer, who: Pick<Signed, 'token' | 'bankCode'>): Record<string, string> {
  return { host: hostOf(server, who.bankCode), authorization: `Bearer ${who.token}` };
}

/** A verified application (e-mail step done), nothing else saved. */
export async function signedIn(
  server: TestServer,
  bankCode = '0177',
  applicationType: Signed['applicationType'] = 'GENERAL',
  verifyOn: TestServer = server,
): Promise<Signed> {
  const token = await signIn(server, applicant(bankCode, applicationType), verifyOn);
  const [row] = await server.app.db
    .select({ id: authTokens.applicationId })
    .from(authTokens)
    .where(eq(authTokens.tokenHash, hashAuthToken(token)));
  if (!row) throw new Error('no application for the token');
  return { token, id: row.id, bankCode, applicationType };
}

/**
 * Every form the application's flow asks before the PIN, as saved (the parent page's excepted:
 * saveParent): the applicant's of savedDocuments and savedPersonal, and for any other form (a
 * step a product owner added) the sample answers of its schema (src/flow-tools/samples.ts).
 * Written to the table directly: the routes and their validation have tests of their own; here
 * only their result matters.
 */
export async function saveSteps(server: TestServer, who: Signed, personal: Record<string, unknown> = {}, except: readonly string[] = []): Promise<void> {
  // An override of null leaves the answer out, as the engine stores it.
  const answers = Object.fromEntries(Object.entries({ ...savedPersonal, ...personal }).filter(([, value]) => value !== null));
  const known: Record<string, Record<string, unknown>> = { ...savedDocuments, personal: answers };
  const version = await flowVersionOf(server, who);
  for (const form of version.requiredForms) {
    if (parentForms.has(form) || form === 'confirmation' || except.includes(form)) continue;
    await storeDocument(server.app.db, who.id, form, known[form] ?? sampleDocument(server, form, version.flow.id, who), server.clock.now());
  }
}

/** The parent page's forms of the child flow, saved by saveParent. */
const parentForms = new Set(['parent', 'parent-workplace']);

async function flowVersionOf(server: TestServer, who: Signed) {
  const [row] = await server.app.db.select({ flowVersion: applications.flowVersion }).from(applications).where(eq(applications.id, who.id));
  const version = await server.app.flowVersions.of({ applicationType: who.applicationType, flowVersion: row?.flowVersion ?? null });
  if (!version) throw new Error('the application runs no flow version');
  return version;
}

/** The sample answers of a form of the server's catalogue, as the flow asks it. */
function sampleDocument(server: TestServer, form: string, flowId: string, who: Signed): Record<string, unknown> {
  const definition = server.app.forms.get(form);
  if (!definition) throw new Error(`the server has no form ${form}`);
  const bank = server.app.banks.get(who.bankCode);
  if (!bank) throw new Error(`the server has no bank ${who.bankCode}`);
  return sampleAnswers(formFor(definition.schema, flowId), 'asks', { applicationType: who.applicationType, bank, today: server.clock.now(), saved: savedSteps }).answers;
}

/** The parent page's two forms of a child application as stored (documents 'parent' and 'parent-workplace'), from savedParent. */
export function savedParentDocuments(who: Signed, overrides: Record<string, unknown> = {}): Record<'parent' | 'parent-workplace', Record<string, unknown>> {
  const { occupationId, occupationName, workplaceName, workplacePhoneNumber, ...personal } = { ...savedParent, ...overrides };
  const present = (answers: Record<string, unknown>) => Object.fromEntries(Object.entries(answers).filter(([, value]) => value !== null && value !== undefined));
  return {
    parent: present({ bankCode: who.bankCode, ...personal }),
    'parent-workplace': present({ occupationId, occupationName, workplaceName, workplacePhoneNumber }),
  };
}

/**
 * The parent step of a child application as saved (written directly, as saveSteps): the two
 * documents of the parent page; an override of null leaves the answer out, as the engine stores it.
 */
export async function saveParent(server: TestServer, who: Signed, overrides: Record<string, unknown> = {}): Promise<void> {
  for (const [form, stored] of Object.entries(savedParentDocuments(who, overrides))) await storeDocument(server.app.db, who.id, form, stored, server.clock.now());
}

/** Every step up to /confirmation saved, but the forms of `except`: the parent's too for a child application. */
export async function confirmedApplication(server: TestServer, bankCode = '0177', applicationType: Signed['applicationType'] = 'GENERAL', except: readonly string[] = []): Promise<Signed> {
  const who = await signedIn(server, bankCode, applicationType);
  await saveSteps(server, who, {}, except);
  if (applicationType === 'CHILD') await saveParent(server, who);
  return who;
}

export interface PublicKeyAnswer {
  keyId: string;
  keyCode: string;
  binding: string;
}

export async function publicKey(server: TestServer, who: Signed): Promise<PublicKeyAnswer> {
  const response = await server.app.inject({ method: 'GET', url: '/api/public-key', headers: headersOf(server, who) });
  if (response.statusCode !== 200) throw new Error(`GET /api/public-key answered ${response.statusCode}`);
  return response.json<PublicKeyAnswer>();
}

/** What the page does: RSA-OAEP SHA-256 through Web Crypto over {"pin","binding"}. */
export async function encryptPin(keyCode: string, payload: unknown): Promise<string> {
  const key = await webcrypto.subtle.importKey('spki', Buffer.from(keyCode, 'base64'), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const data = new TextEncoder().encode(JSON.stringify(payload));
  return Buffer.from(await webcrypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, data)).toString('base64');
}

/** The same payload with the old PKCS#1 v1.5 padding (what jsencrypt's encrypt() makes). */
export function encryptPinPkcs1(keyCode: string, payload: unknown): string {
  const key = createPublicKey({ key: Buffer.from(keyCode, 'base64'), format: 'der', type: 'spki' });
  return publicEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(JSON.stringify(payload))).toString('base64');
}

export async function postPin(server: TestServer, who: Signed, code: string, keyId?: string): Promise<Response> {
  return server.app.inject({
    method: 'POST',
    url: '/api/pin',
    headers: headersOf(server, who),
    payload: keyId === undefined ? { code } : { code, keyId },
  });
}

/** Fetches a key and binding and sends the PIN as the page would. */
export async function setPin(server: TestServer, who: Signed, pin = GOOD_PIN): Promise<Response> {
  const { keyId, keyCode, binding } = await publicKey(server, who);
  return postPin(server, who, await encryptPin(keyCode, { pin, binding }), keyId);
}

export async function startEkyc(server: TestServer, who: Signed, body: Record<string, unknown> = { supplement: false }): Promise<Response> {
  return server.app.inject({ method: 'POST', url: '/api/ekyc', headers: headersOf(server, who), payload: body });
}

export async function ekycStatus(server: TestServer, who: Signed): Promise<number> {
  const response = await server.app.inject({ method: 'POST', url: '/api/ekyc/status', headers: headersOf(server, who) });
  if (response.statusCode !== 200) throw new Error(`POST /api/ekyc/status answered ${response.statusCode}`);
  return response.json<{ status: number }>().status;
}

/** The tester's choice on the simulator page: a plain form post, no session header needed. */
export async function decide(server: TestServer, who: Pick<Signed, 'bankCode'>, url: string, outcome: string): Promise<Response> {
  return server.app.inject({
    method: 'POST',
    url: `${url}/decision`,
    headers: { host: hostOf(server, who.bankCode), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ outcome }).toString(),
  });
}

/** PIN set, identity check started and decided on the simulator. */
export async function verifiedApplication(
  server: TestServer,
  options: { bankCode?: string; applicationType?: Signed['applicationType']; outcome?: string } = {},
): Promise<Signed> {
  const who = await confirmedApplication(server, options.bankCode, options.applicationType);
  if (who.applicationType === 'CHILD') {
    await uploadOk(server, who, 'INDIVIDUAL_NUMBER_CARD');
    await uploadOk(server, who, 'MATERNITY_HANDBOOK');
  }
  const pin = await setPin(server, who);
  if (pin.statusCode !== 200) throw new Error(`PIN answered ${pin.statusCode} ${pin.body}`);
  const started = await startEkyc(server, who);
  if (started.statusCode !== 200) throw new Error(`eKYC start answered ${started.statusCode} ${started.body}`);
  const decided = await decide(server, who, started.json<{ url: string }>().url, options.outcome ?? 'approve');
  if (decided.statusCode !== 303) throw new Error(`decision answered ${decided.statusCode}`);
  return who;
}

// ---- images ----------------------------------------------------------------------------

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real grayscale PNG of the given size (noise, so it does not compress to nothing). */
export function png(width: number, height: number, noise = false): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // grayscale
  const row = width + 1; // filter byte + pixels
  const raw = noise ? randomBytes(row * height) : Buffer.alloc(row * height, 0x80);
  for (let y = 0; y < height; y += 1) raw[y * row] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The frame of a baseline JPEG (SOI, JFIF, SOF0 with the size, EOI): enough for type and size. */
export async function jpeg(width: number, height: number): Promise<Buffer> {
  // A real, fully decodable JPEG: the server decodes every upload to its last pixel.
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 180, b: 160 } } }).jpeg({ quality: 80 }).toBuffer();
}

/** A multipart/form-data body as a browser's FormData sends it. */
export function multipartBody(
  fields: Record<string, string>,
  file?: { field?: string; filename: string; contentType: string; data: Buffer },
): { payload: Buffer; contentType: string } {
  const boundary = `----kouza${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'image'}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function upload(server: TestServer, who: Signed, type: string, image: Buffer = png(1200, 800), filename = 'photo.png', contentType = 'image/png'): Promise<Response> {
  const body = multipartBody({ type }, { filename, contentType, data: image });
  return server.app.inject({
    method: 'POST',
    url: '/api/documents',
    headers: { ...headersOf(server, who), 'content-type': body.contentType },
    payload: body.payload,
  });
}

export async function uploadOk(server: TestServer, who: Signed, type: string, image?: Buffer): Promise<{ id: string; type: string }> {
  const response = await upload(server, who, type, image);
  if (response.statusCode !== 201) throw new Error(`upload answered ${response.statusCode} ${response.body}`);
  return response.json<{ id: string; type: string }>();
}

export async function complete(server: TestServer, who: Signed): Promise<Response> {
  return server.app.inject({ method: 'POST', url: '/api/application-complete', headers: headersOf(server, who) });
}

/** The applicant comes back (ADR 0030): a fresh code for their address, sent to the resume route. */
export async function resumed(server: TestServer, who: Signed): Promise<Response> {
  const [row] = await server.app.db.select({ mailAddress: applications.mailAddress }).from(applications).where(eq(applications.id, who.id));
  const returning = { bankCode: who.bankCode, applicationType: who.applicationType, mailAddress: row?.mailAddress ?? '' };
  await register(server, returning);
  return server.app.inject({
    method: 'POST',
    url: '/api/verification-codes/resume',
    headers: { host: hostOf(server, who.bankCode) },
    payload: { ...returning, verificationCode: await codeFromOutbox(server.outbox, returning.mailAddress) },
  });
}
