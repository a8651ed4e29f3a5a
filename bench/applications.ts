/**
 * bench/load.ts's applicants (and tests/api/two-processes.test.ts's, sent to two server
 * processes in turn): whole applications over HTTP, general and child, as the pages
 * send them (src/client): the page shell, the maintenance and notice checks, register, the
 * code from the mail, verify, each form page with the stored answers and the lookups it makes,
 * the PIN encrypted with the served public key (Web Crypto, as the page does), the child's
 * documents (real PNGs, multipart as FormData sends them), the identity check through the
 * simulator's page, the status poll, completion. The bodies are the tests'
 * (tests/api/application-fixtures.ts). Every request is timed under its route's name, which it
 * also sends to the probe in the server (ROUTE_HEADER) to count its SQL statements there.
 */
import { Agent, request } from 'undici';
import { EKYC_STATUS } from '../src/domain/ekyc.js';
import { birthdayYearsAgo, uniqueAddress, uniqueIp } from '../tests/api/helpers.js';
import { encryptPin, GOOD_PIN, multipartBody, png, validBodies } from '../tests/api/application-fixtures.js';
import { ROUTE_HEADER } from './probe-protocol.js';
import { sleep } from './processes.js';

export const FLOWS = ['general', 'child'] as const;
export type Flow = (typeof FLOWS)[number];

const BANK = '0177';
/** Not a request: from register's answer to the code at the SMTP sink (the mail queue's delay). */
export const CODE_ARRIVES = '(register to code at the SMTP sink)';
/** Pages an application goes through, for the think time between them when pacing. */
const PAGES = 11;


/** Latencies by route, errors, and finished and failed applications by flow. */
export class Recorder {
  readonly latencies = new Map<string, number[]>();
  readonly errors = new Map<string, number>();
  readonly examples: string[] = [];
  readonly finished: Record<Flow, number> = { general: 0, child: 0 };
  readonly failed: Record<Flow, number> = { general: 0, child: 0 };

  time(route: string, ms: number): void {
    let list = this.latencies.get(route);
    if (!list) this.latencies.set(route, (list = []));
    list.push(ms);
  }

  error(route: string, what: string): void {
    this.errors.set(route, (this.errors.get(route) ?? 0) + 1);
    if (this.examples.length < 5) this.examples.push(`${route}: ${what}`);
  }

  all(): number[] {
    return [...this.latencies].filter(([route]) => !route.startsWith('(')).flatMap(([, list]) => list);
  }

  errorCount(): number {
    return [...this.errors.values()].reduce((sum, n) => sum + n, 0);
  }

  get applications(): number {
    return this.finished.general + this.finished.child;
  }

  get failedApplications(): number {
    return this.failed.general + this.failed.child;
  }
}

/** Where the applicants send their requests and read their codes. */
export interface Target {
  base: string;
  recorder: Recorder;
  /** The code mailed to an address, once it has reached the SMTP sink. */
  codeFor(address: string): Promise<string>;
}

interface Call {
  method?: 'GET' | 'POST';
  token?: string;
  ip?: string;
  json?: unknown;
  form?: Record<string, string>;
  multipart?: { payload: Buffer; contentType: string };
  status?: number;
}

class RequestFailed extends Error {}

function bodyOf(options: Call, headers: Record<string, string>): string | Buffer | undefined {
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    return JSON.stringify(options.json);
  }
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    return new URLSearchParams(options.form).toString();
  }
  if (options.multipart) {
    headers['content-type'] = options.multipart.contentType;
    return options.multipart.payload;
  }
  return undefined;
}

/** What a call answered, its body read. */
interface Answer {
  status: number;
  text: string;
}

/**
 * The applicants' HTTP client: undici's request() over kept-alive connections, one per
 * applicant in flight, as fetch() does (which is built on it). fetch() itself cost the driver
 * about 0.5 ms of CPU per request against 0.08 ms for request() (measured here), and the
 * driver shares the machine's two cores with the server it measures.
 */
const connections = new Agent({ keepAliveTimeout: 30_000 });

async function call({ base, recorder }: Target, route: string, url: string, options: Call = {}): Promise<Answer> {
  // The probe in the server counts each request's SQL statements under this name.
  const headers: Record<string, string> = { [ROUTE_HEADER]: route };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.ip) headers['x-forwarded-for'] = options.ip;
  const body = bodyOf(options, headers);
  const started = performance.now();
  let answer: Answer;
  try {
    const response = await request(base + url, { dispatcher: connections, method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
    answer = { status: response.statusCode, text: await response.body.text() };
  } catch (error) {
    recorder.error(route, error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? '')}` : String(error));
    throw new RequestFailed(route);
  }
  recorder.time(route, performance.now() - started);
  const expected = options.status ?? 200;
  if (answer.status !== expected) {
    recorder.error(route, `${answer.status} ${answer.text.slice(0, 160)}`);
    throw new RequestFailed(route);
  }
  return answer;
}

const json = async <T>(answer: Promise<Answer>): Promise<T> => JSON.parse((await answer).text) as T;

/** One applicant's requests: one client IP, the session once verified, think time between pages. */
function applicantOf(target: Target, thinkMs: number) {
  const ip = uniqueIp();
  let token: string | undefined;
  /** A step was just stored (or verify answered): its answer is what the next page opens with (src/client/api/application.ts). */
  let stepAnswered = false;
  const session = () => (token ? { token } : {});
  const get = (route: string, url: string, status = 200) => call(target, route, url, { ip, status, ...session() });
  return {
    get,
    post: (route: string, url: string, body?: unknown, status = 200) => call(target, route, url, { method: 'POST', ip, json: body, status, ...session() }),
    /** A form step's POST, whose answer the next page reads. */
    step: async (url: string, body: unknown) => {
      await call(target, `POST ${url}`, url, { method: 'POST', ip, json: body, status: 200, ...session() });
      stepAnswered = true;
    },
    /** A page that reads the stored application: from the last step's answer, else GET /api/applications. */
    openPage: async () => {
      if (!stepAnswered) await get('GET /api/applications', '/api/applications');
      stepAnswered = false;
    },
    form: (route: string, url: string, form: Record<string, string>, status: number) => call(target, route, url, { ip, form, status }),
    upload: (type: string, image: Buffer) =>
      call(target, 'POST /api/documents', '/api/documents', { ip, status: 201, multipart: multipartBody({ type }, { filename: 'photo.png', contentType: 'image/png', data: image }), ...session() }),
    think: () => (thinkMs > 0 ? sleep(thinkMs * (0.5 + Math.random())) : Promise.resolve()),
    /** Verified: the session, and whether verify answered the new application (the first page then opens with it). */
    signedIn: (value: string, answered: boolean) => {
      token = value;
      stepAnswered = answered;
    },
    thinkMs,
  };
}
type Applicant = ReturnType<typeof applicantOf>;

/** The landing page (shell, maintenance, notices), register, the code from the mail, verify. */
async function signIn(target: Target, applicant: Applicant, flow: Flow): Promise<void> {
  await applicant.get(flow === 'general' ? 'GET /term' : 'GET /child/term', flow === 'general' ? '/term' : '/child/term');
  // No maintenance window: 404, which the page reads as none.
  await applicant.get('GET /api/maintenance', '/api/maintenance', 404);
  await applicant.get('GET /api/notifications/:bankCode', `/api/notifications/${BANK}`);
  await applicant.think();

  const who = { bankCode: BANK, mailAddress: uniqueAddress('load'), applicationType: flow === 'general' ? 'GENERAL' : 'CHILD' };
  const mailed = target.codeFor(who.mailAddress);
  mailed.catch(() => undefined); // a failed register leaves it waiting; its timeout must not crash the run
  await applicant.post('POST /api/verification-codes/register', '/api/verification-codes/register', who);
  const registered = performance.now();
  const code = await mailed;
  target.recorder.time(CODE_ARRIVES, performance.now() - registered);
  await applicant.think();
  const verified = applicant.post('POST /api/verification-codes/verify', '/api/verification-codes/verify', { ...who, verificationCode: code, channel: null, deviceId: null });
  const entered = await json<{ authenticationToken: string; applications?: unknown }>(verified);
  applicant.signedIn(entered.authenticationToken, entered.applications !== undefined);
  await applicant.think();
}

/** A form page: the stored answers, the page's lookups, its forms posted in order. */
async function formPage(applicant: Applicant, lookups: [route: string, url: string][], posts: [url: string, body: unknown][]): Promise<void> {
  await applicant.openPage();
  for (const [route, url] of lookups) await applicant.get(route, url);
  for (const [url, body] of posts) await applicant.step(url, body);
  await applicant.think();
}

/** The personal page's address candidates and the furigana of the two names; the first address code. */
async function personalLookups(applicant: Applicant): Promise<string> {
  const { addressList } = await json<{ addressList: { addressCode: string }[] }>(applicant.get('GET /api/addresses', '/api/addresses?postalNumber=8100001'));
  for (const kanji of ['山田', '花子']) await applicant.get('GET /api/furigana', `/api/furigana?kanji=${encodeURIComponent(kanji)}`);
  return addressList[0]?.addressCode ?? 'none';
}

async function branchPage(applicant: Applicant): Promise<void> {
  await applicant.openPage();
  const { branchList } = await json<{ branchList: { code: string }[] }>(applicant.get('GET /api/branch', '/api/branch'));
  await applicant.step('/api/applications/branch', { branchCode: branchList[0]?.code ?? 'none' });
  await applicant.think();
}

/** /confirmation, then /pin: the served key, the PIN encrypted as the page does. */
async function confirmAndSetPin(applicant: Applicant): Promise<void> {
  await applicant.openPage();
  await applicant.think();
  // /pin opens with the application the summary showed.
  const key = await json<{ keyId: string; keyCode: string; binding: string }>(applicant.get('GET /api/public-key', '/api/public-key'));
  await applicant.post('POST /api/pin', '/api/pin', { code: await encryptPin(key.keyCode, { pin: GOOD_PIN, binding: key.binding }), keyId: key.keyId });
  await applicant.think();
}

/** The identity check started, decided on the simulator's page, polled until approved; completion. */
async function identityCheckAndCompletion(applicant: Applicant): Promise<void> {
  const { url } = await json<{ url: string }>(applicant.post('POST /api/ekyc', '/api/ekyc', { supplement: false }));
  await applicant.get('GET /ekyc-simulator/sessions/:id', url);
  await applicant.think();
  await applicant.form('POST /ekyc-simulator/sessions/:id/decision', `${url}/decision`, { outcome: 'approve' }, 303);
  await applicant.get('GET /ekyc-callback', '/ekyc-callback');
  for (let tries = 1; ; tries += 1) {
    const { status } = await json<{ status: number }>(applicant.post('POST /api/ekyc/status', '/api/ekyc/status'));
    if (status === EKYC_STATUS.bankerProcessing) break;
    if (tries >= 12) throw new Error(`identity check still at status ${status}`);
    await sleep(applicant.thinkMs > 0 ? 5_000 : 50);
  }
  // /redirect: completion.
  await applicant.post('POST /api/application-complete', '/api/application-complete');
}

async function general(target: Target, applicant: Applicant): Promise<void> {
  await signIn(target, applicant, 'general');
  await applicant.openPage();
  const addressCode = await personalLookups(applicant);
  await applicant.step('/api/applications/personal', validBodies.personal(addressCode));
  await applicant.think();
  await formPage(applicant, [['GET /api/occupations', '/api/occupations']], [['/api/applications/workplace', validBodies.workplace()]]);
  await branchPage(applicant);
  await formPage(applicant, [], [['/api/applications/seal-less', { sealLess: true }]]);
  await confirmAndSetPin(applicant);
  await identityCheckAndCompletion(applicant);
}

/** A real PNG the size of a phone photo scaled for upload: the server decodes and re-encodes it. */
const documentImage = png(1200, 800);

async function child(target: Target, applicant: Applicant): Promise<void> {
  await signIn(target, applicant, 'child');
  // /child/personal: the child's data and occupation on one page.
  await applicant.openPage();
  const addressCode = await personalLookups(applicant);
  await applicant.get('GET /api/occupations', '/api/occupations');
  const childPersonal = { ...validBodies.personal(addressCode), firstName: '一郎', kanaFirstName: 'ｲﾁﾛｳ', gender: 'MAN', birthday: birthdayYearsAgo(new Date(), 10) };
  await applicant.step('/api/applications/personal', childPersonal);
  await applicant.step('/api/applications/workplace', { ...validBodies.workplace(), occupationId: 12, workplaceName: null, workplacePhoneNumber: null });
  await applicant.think();
  // /child/parent: the occupations, and the furigana of the parent's first name (the surname is the child's).
  await formPage(applicant, [['GET /api/occupations', '/api/occupations'], ['GET /api/furigana', `/api/furigana?kanji=${encodeURIComponent('太郎')}`]], [
    ['/api/applications/personal/parent', validBodies.parent('1980-10-10')],
    ['/api/applications/workplace/parent', validBodies.parentWorkplace()],
  ]);
  await branchPage(applicant);
  await confirmAndSetPin(applicant);
  // The child's card and the supplementary document, then the parent's identity check.
  await applicant.upload('INDIVIDUAL_NUMBER_CARD', documentImage);
  await applicant.think();
  await applicant.upload('MATERNITY_HANDBOOK', documentImage);
  await applicant.think();
  await identityCheckAndCompletion(applicant);
}

/** One whole application of a flow; think time between pages when thinkMs > 0. */
export async function wholeApplication(target: Target, flow: Flow, thinkMs: number): Promise<void> {
  const applicant = applicantOf(target, thinkMs);
  await (flow === 'general' ? general(target, applicant) : child(target, applicant));
}

/** Runs one application and counts it as finished or failed under its flow. */
export async function countedApplication(target: Target, flow: Flow, thinkMs: number): Promise<void> {
  try {
    await wholeApplication(target, flow, thinkMs);
    target.recorder.finished[flow] += 1;
  } catch (error) {
    target.recorder.failed[flow] += 1;
    if (!(error instanceof RequestFailed)) target.recorder.error('(application)', error instanceof Error ? error.message : String(error));
  }
}

/**
 * Applicants running whole applications back to back until the time is up; the time taken.
 * A share childShare of the applications (spread evenly: every second one at 0.5) are child ones.
 */
export async function drive(target: Target, applicants: number, seconds: number, paceSeconds: number | null, childShare: number): Promise<number> {
  const thinkMs = paceSeconds ? (paceSeconds * 1000) / PAGES : 0;
  let started = 0;
  const nextFlow = (): Flow => {
    const n = started++;
    return Math.floor((n + 1) * childShare) > Math.floor(n * childShare) ? 'child' : 'general';
  };
  const begin = performance.now();
  const deadline = begin + seconds * 1000;
  await Promise.all(
    Array.from({ length: applicants }, async (_, index) => {
      if (paceSeconds) await sleep((paceSeconds * 1000 * index) / applicants);
      while (performance.now() < deadline) await countedApplication(target, nextFlow(), thinkMs);
    }),
  );
  return (performance.now() - begin) / 1000;
}
