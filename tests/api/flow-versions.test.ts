import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FlowConfig } from '../../src/domain/flow/types.js';
import { applications, flowVersions } from '../../src/server/db/schema.js';
import { repositoryRoot } from '../../src/server/flows/check.js';
import { storeDocument } from '../../src/server/forms/documents.js';
import { runOperatorCommand } from '../../src/server/operator/commands.js';
import { httpMessages } from '../../src/server/http-messages.js';
import { purgeExpired } from '../../src/server/resume/applications.js';
import { writeFoldersWithNewStep } from '../model/new-step.js';
import { writeFlowsWithoutSteps } from '../model/remove-steps.js';
import { complete, decide, headersOf, resumed, savedPersonal, saveSteps, setPin, signedIn, startEkyc, validBodies, verifiedApplication, type Signed } from './application-fixtures.js';
import { applicant, backends, captureLog, codeFromOutbox, HOUR, MINUTE, register, startTestServer, throwawaySchema, verify, type TestServer } from './helpers.js';

/**
 * Issue 14, "finish on the flow you started": an application started on the shipped flows is
 * finished, after a restart on a copy of the flows without the workplace page (which it has
 * passed) and the seal-less page (which it has not reached), on the flow it started; a new
 * application gets the edited flow; the old version is dropped once no application runs it.
 * The restart keeps the database (PGlite in a DATA_DIR of the test's, or one PostgreSQL schema).
 */
/**
 * The steps these tests walk by hand; any other form the flow asks (one a product owner added)
 * is stored for the applicants as they start (saveSteps), so it never stands in the way.
 */
const WALKED = ['personal', 'workplace', 'branch', 'sealLess'];

describe.each(backends)('flow versions across a restart on an edited flow ($name)', (backend) => {
  let folder: string;
  let database: Awaited<ReturnType<typeof throwawaySchema>> | null = null;
  let server: TestServer | undefined;
  const secrets = { hmacPepper: randomBytes(32).toString('base64url') };

  // Each test on a database of its own: what one test's applicants run must not keep another's versions.
  beforeEach(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'kouza-versions-'));
    if (backend.url) database = await throwawaySchema(backend.url);
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await database?.drop();
    database = null;
    await rm(folder, { recursive: true, force: true });
  });

  /** A server on the test's database (kept across restarts), on `folders` or the shipped flows and schemas. */
  const start = async (folders: { flowsDir?: string; schemasDir?: string } = {}, logStream?: Writable) => {
    await server?.close();
    server = await startTestServer(
      { name: 'pglite' },
      {
        config: { dataDir: path.join(folder, 'data'), databaseUrl: database?.databaseUrl ?? null, secrets, ...folders, ...(logStream ? { logLevel: 'info' } : {}) },
        ...(logStream ? { logStream } : {}),
      },
    );
    return server;
  };
  const servedVersion = (s: TestServer) => s.app.flowVersions.current().find((v) => v.applicationType === 'GENERAL')?.version;
  const versionOf = async (s: TestServer, who: Signed) =>
    (await s.app.db.select({ version: applications.flowVersion }).from(applications).where(eq(applications.id, who.id)))[0]?.version;
  const keptVersions = async (s: TestServer) => (await s.app.db.select({ version: flowVersions.version }).from(flowVersions)).map((row) => row.version);
  const post = (s: TestServer, who: Signed, url: string, payload: Record<string, unknown>) =>
    s.app.inject({ method: 'POST', url: `/api/${url}`, headers: headersOf(s, who), payload });
  const flowOf = async (s: TestServer, version: string | undefined) => s.app.inject({ method: 'GET', url: `/api/flows/${version ?? ''}` });
  /** PIN set and identity check approved on the simulator, then completion asked. */
  const finish = async (s: TestServer, who: Signed) => {
    expect((await setPin(s, who)).statusCode).toBe(200);
    const started = await startEkyc(s, who);
    expect((await decide(s, who, started.json<{ url: string }>().url, 'approve')).statusCode).toBe(303);
    return complete(s, who);
  };

  it('finishes an application on its own version after a restart, gives a new one the edited flow, and drops the old one when unused', async () => {
    // Day one: the shipped flows. Two applicants pass /personal and /workplace.
    let current = await start();
    const shipped = servedVersion(current);
    const early = await signedIn(current);
    const stuck = await signedIn(current);
    for (const who of [early, stuck]) {
      await saveSteps(current, who, {}, WALKED);
      await storeDocument(current.app.db, who.id, 'personal', savedPersonal, current.clock.now());
      expect((await post(current, who, 'applications/workplace', validBodies.workplace())).statusCode).toBe(200);
      expect(await versionOf(current, who)).toBe(shipped);
    }

    // The product owner drops /workplace and /seal-less; the server restarts on the same database.
    current = await start({ flowsDir: writeFlowsWithoutSteps(path.join(folder, 'edited-flows')) });
    const edited = servedVersion(current);
    expect(edited).toMatch(/^[0-9a-f]{64}$/);
    expect(edited).not.toBe(shipped);
    expect(await keptVersions(current)).toEqual(expect.arrayContaining([shipped, edited]));

    // The first applicant finishes on the shipped flow: its seal choice is still asked.
    expect((await post(current, early, 'applications/branch', { branchCode: '001' })).statusCode).toBe(200);
    expect((await post(current, early, 'applications/seal-less', { sealLess: true })).statusCode).toBe(200);
    const completed = await finish(current, early);
    expect(completed.statusCode).toBe(200);

    // The second one skips the seal choice: completion waits for it, as its flow asks it.
    expect((await post(current, stuck, 'applications/branch', { branchCode: '001' })).statusCode).toBe(200);
    // Resumed after the restart, the second applicant goes on in its own version: the resume
    // answers that version and the step its flow puts next (the seal choice the edit removed,
    // where the edited flow would go on to the confirmation).
    const resumedStuck = await resumed(current, stuck);
    expect(resumedStuck.statusCode).toBe(200);
    expect(resumedStuck.json<{ flowVersion: string; path: string }>()).toMatchObject({ flowVersion: shipped, path: '/seal-less' });

    const blocked = await finish(current, stuck);
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json()).toEqual({ message: httpMessages.stepsIncomplete });

    // Both definitions are served by hash to the pages that run them.
    const shippedFlow = await flowOf(current, shipped);
    expect(shippedFlow.statusCode).toBe(200);
    // As written, keys in the file's order (the order of the states is that of the pages).
    expect(JSON.stringify(shippedFlow.json<{ flow: FlowConfig }>().flow)).toBe(JSON.stringify(JSON.parse(readFileSync(path.join(repositoryRoot, 'flows', 'general.json'), 'utf8'))));
    expect(Object.keys((await flowOf(current, edited)).json<{ flow: FlowConfig }>().flow.states)).not.toContain('sealLess');

    // A page loaded before the restart runs the shipped flow: its applicant, verified now, keeps
    // it; a version the server does not keep (or none) gets the edited one.
    const verifiedOn = async (flowVersion: unknown) => {
      const who = applicant();
      await register(current, who);
      const verified = await verify(current, who, await codeFromOutbox(current.outbox, who.mailAddress), { flowVersion });
      return verified.json<{ flowVersion: string }>().flowVersion;
    };
    expect(await verifiedOn(shipped)).toBe(shipped);
    expect(await verifiedOn('0'.repeat(64))).toBe(edited);
    expect(await verifiedOn(undefined)).toBe(edited);

    // A new applicant gets the edited flow: no workplace, no seal choice, and completes without them.
    const late = await signedIn(current);
    await saveSteps(current, late, {}, WALKED);
    expect(await versionOf(current, late)).toBe(edited);
    expect((await post(current, late, 'applications/workplace', {})).statusCode).toBe(404);
    expect((await post(current, late, 'applications/seal-less', { sealLess: true })).statusCode).toBe(404);
    await storeDocument(current.app.db, late.id, 'personal', savedPersonal, current.clock.now());
    expect((await post(current, late, 'applications/branch', { branchCode: '001' })).statusCode).toBe(200);
    expect((await finish(current, late)).statusCode).toBe(200);

    // Two hours on (the shipped version's lease has ended): a new applicant's arrival runs the
    // upkeep, which keeps the shipped version while unfinished applications run it…
    current.clock.advance(2 * HOUR);
    await signedIn(current);
    expect(await keptVersions(current)).toContain(shipped);
    // …also after their sessions ended (12 hours after the e-mail check): they may be resumed…
    current.clock.advance(11 * HOUR);
    await signedIn(current);
    expect(await keptVersions(current)).toContain(shipped);
    // …until their bank's retention (30 days after their last write) deletes them.
    current.clock.advance(31 * 24 * HOUR);
    for (const bank of current.app.banks.all()) await purgeExpired(current.app.db, bank, current.clock.now());
    await signedIn(current);
    expect(await keptVersions(current)).not.toContain(shipped);
    expect(await keptVersions(current)).toContain(edited);
    expect((await flowOf(current, shipped)).statusCode).toBe(404);
    // The completed application still names the version it ran.
    expect(await versionOf(current, early)).toBe(shipped);
  });

  it('counts the applicants an edit strands, moves those at a mapped state, and leaves the others on their version (ADR 0032)', async () => {
    // The shipped flows: two applicants wait at the seal choice, one at /workplace, one at /branch.
    let current = await start();
    const shipped = servedVersion(current) ?? '';
    const reach = async (steps: number) => {
      const who = await signedIn(current);
      await saveSteps(current, who, {}, WALKED);
      await storeDocument(current.app.db, who.id, 'personal', savedPersonal, current.clock.now());
      if (steps > 1) expect((await post(current, who, 'applications/workplace', validBodies.workplace())).statusCode).toBe(200);
      if (steps > 2) expect((await post(current, who, 'applications/branch', { branchCode: '001' })).statusCode).toBe(200);
      return who;
    };
    const atSeal = [await reach(3), await reach(3)];
    const atWorkplace = await reach(1);
    const atBranch = await reach(2);
    const old = shipped.slice(0, 12);

    // A restart on a flow without /workplace and /seal-less: the start counts who is stranded where.
    let log = captureLog();
    current = await start({ flowsDir: writeFlowsWithoutSteps(path.join(folder, 'edited')) }, log.stream);
    const edited = servedVersion(current) ?? '';
    const stranded = (lines: string[]) =>
      lines.map((line) => String((JSON.parse(line) as { msg?: unknown }).msg)).filter((msg) => msg.includes('a state this flow removed') || msg.includes('onto this version'));
    const sealLine = `2 applicants are at "sealLess" (/seal-less) on version ${old}, a state this flow removed: they finish on their version; to move them onto this one, add "movedStates": { "sealLess": "<state>" }`;
    const workplaceLine = `1 applicant is at "workplace" (/workplace) on version ${old}, a state this flow removed: they finish on their version`;
    const atStart = stranded(log.lines);
    expect(atStart).toHaveLength(2);
    expect(atStart.find((line) => line.includes(sealLine))).toContain(`flow "general" (version ${edited.slice(0, 12)}): `);
    expect(atStart.some((line) => line.includes(workplaceLine))).toBe(true);
    // The same report on demand, from the operator command (here as the socket runs it, in the server).
    const report = await runOperatorCommand(['flows', 'impact'], { db: current.app.db, isBank: () => true, servedFlows: () => current.app.flowVersions.current() });
    expect(report.exitCode).toBe(0);
    expect(report.lines).toEqual([`flow "general" (version ${edited.slice(0, 12)}): ${sealLine}`, expect.stringContaining(workplaceLine)]);

    // The product owner maps the seal choice to the confirmation: the next start moves those two.
    log = captureLog();
    current = await start({ flowsDir: writeFlowsWithoutSteps(path.join(folder, 'mapped'), { sealLess: 'confirmation' }) }, log.stream);
    const mapped = servedVersion(current) ?? '';
    expect(stranded(log.lines).filter((line) => line.includes(`moved 2 applicants at "sealLess" (/seal-less) on version ${old} onto this version, to go on at "confirmation" (/confirmation)`))).toHaveLength(1);
    for (const who of atSeal) expect(await versionOf(current, who)).toBe(mapped);
    expect(await versionOf(current, atWorkplace)).toBe(shipped);
    expect(await versionOf(current, atBranch)).toBe(shipped);

    // Their sessions ended (a page still open runs the old version); the others' go on.
    expect((await current.app.inject({ method: 'GET', url: '/api/applications', headers: headersOf(current, atSeal[1] as Signed) })).statusCode).toBe(401);
    expect((await current.app.inject({ method: 'GET', url: '/api/applications', headers: headersOf(current, atWorkplace) })).statusCode).toBe(200);
    // A moved applicant resumes on the new version at the mapped step and completes there.
    const back = await resumed(current, atSeal[0] as Signed);
    expect(back.statusCode).toBe(200);
    expect(back.json<{ flowVersion: string; path: string }>()).toMatchObject({ flowVersion: mapped, path: '/confirmation' });
    const signedAgain = { ...(atSeal[0] as Signed), token: back.json<{ authenticationToken: string }>().authenticationToken };
    expect((await finish(current, signedAgain)).statusCode).toBe(200);
    // The one at /workplace stays on its version, where it resumes, and is still reported.
    expect((await resumed(current, atWorkplace)).json<{ flowVersion: string; path: string }>()).toMatchObject({ flowVersion: shipped, path: '/workplace' });

    // Another start moves nobody twice: only the unmapped applicant is left to report.
    log = captureLog();
    current = await start({ flowsDir: path.join(folder, 'mapped') }, log.stream);
    expect(stranded(log.lines)).toEqual([expect.stringContaining(workplaceLine)]);
  });

  it('starts, and names the version in its log, when a kept version asks a form SCHEMAS_DIR no longer has', async () => {
    // Forms of names the shipped schemas cannot have (whatever a product owner adds to them).
    const copy = writeFoldersWithNewStep(path.join(folder, 'new-step'), (flow) => flow, undefined, 'ForVersions');
    let current = await start(copy);
    const withNewForm = servedVersion(current) ?? '';
    await signedIn(current);
    const log = captureLog();
    current = await start({}, log.stream);
    const problem = log.lines.find((line) => line.includes('a kept flow version cannot serve its applicants'));
    expect(problem).toContain(`flow version ${withNewForm.slice(0, 12)} (general)`);
    expect(problem).toContain(`asks the form(s) ${copy.steps.map((step) => step.form).join(', ')}`);
    expect(servedVersion(current)).not.toBe(withNewForm);
  });

  it('answers a repeated completion with its number after the version it ran was dropped', async () => {
    let current = await start();
    const shipped = servedVersion(current);
    const who = await verifiedApplication(current);
    current = await start({ flowsDir: writeFlowsWithoutSteps(path.join(folder, 'edited-flows')) });
    // The applicant stays active (a request every 20 minutes) while the shipped version's lease ends.
    for (let step = 0; step < 4; step += 1) {
      current.clock.advance(20 * MINUTE);
      expect((await current.app.inject({ method: 'GET', url: '/api/applications', headers: headersOf(current, who) })).statusCode).toBe(200);
    }
    const first = await complete(current, who);
    expect(first.statusCode).toBe(200);
    // A new applicant's arrival runs the upkeep: no running application uses the shipped version now.
    current.clock.advance(11 * MINUTE);
    await signedIn(current);
    expect(await keptVersions(current)).not.toContain(shipped);
    // The page asks again (a reload of /redirect): the same number, no error.
    const again = await complete(current, who);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
  });

  it('answers 400 for a malformed version and 404 for an unknown one', async () => {
    const current = await start();
    expect((await current.app.inject({ method: 'GET', url: '/api/flows/abc' })).statusCode).toBe(400);
    expect((await current.app.inject({ method: 'GET', url: `/api/flows/${'0'.repeat(64)}` })).statusCode).toBe(404);
  });
});
