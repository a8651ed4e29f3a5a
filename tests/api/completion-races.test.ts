import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { EKYC_STATUS } from '../../src/domain/ekyc.js';
import { japanIsoDate } from '../../src/domain/rules/index.js';
import { completeApplication, NUMBER_SLOT } from '../../src/server/completion/complete.js';
import { completionStateFields, type CompletionState } from '../../src/server/completion/facts.js';
import { formatApplicationNumber } from '../../src/server/completion/number.js';
import { applicationNumberCounters, applications, bankDeliveries, ekycSessions, mailQueue } from '../../src/server/db/schema.js';
import { httpMessages } from '../../src/server/http-messages.js';
import { completionMail } from '../../src/server/mail/index.js';
import { complete, verifiedApplication, type Signed } from './application-fixtures.js';
import { backends, testServerFor } from './helpers.js';

/**
 * The completion's one statement (completion/complete.ts, ADR 0040) against what may happen
 * between the session check that judged the application and that statement: another
 * completion, a new identity check. It completes only the application as judged, draws a
 * number only when it completes, and queues the mail and the hand-off with the number, once.
 */

describe.each(backends)('completion races ($name)', (backend) => {
  const server = testServerFor(backend);

  /** What the session check of POST /api/application-complete reads. */
  const judged = async (who: Signed): Promise<CompletionState> => {
    const [state] = await server.app.db.select(completionStateFields).from(applications).where(eq(applications.id, who.id));
    if (!state) throw new Error('no application');
    return state;
  };
  /** The completing statement, as the route sends it for `state`. */
  const completeAsJudged = (who: Signed, state: CompletionState) => {
    const bank = server.banks.get(who.bankCode);
    if (!bank || !state.mailAddress) throw new Error('no bank or address');
    const now = server.clock.now();
    return completeApplication(server.app.db, {
      applicationId: who.id,
      bankCode: who.bankCode,
      now,
      seen: { mailAddress: state.mailAddress, facts: state.completionFacts },
      mail: completionMail(bank, state.mailAddress, NUMBER_SLOT, now),
      discardAfter: new Date(now.getTime() + 60_000),
    });
  };
  const counterOf = async (bankCode: string) => {
    const [row] = await server.app.db
      .select({ lastValue: applicationNumberCounters.lastValue })
      .from(applicationNumberCounters)
      .where(and(eq(applicationNumberCounters.bankCode, bankCode), eq(applicationNumberCounters.day, japanIsoDate(server.clock.now()))));
    return row?.lastValue ?? 0;
  };
  /** The completion mails sent to the application (the queue flushed first), those still queued, and its hand-offs. */
  const sideEffects = async (who: Signed, address: string) => {
    const mails = (await server.outbox.list()).filter((mail) => mail.to === address && mail.subject.includes('受け付けました'));
    return {
      mailed: mails.length,
      queued: (await server.app.db.select({ id: mailQueue.id }).from(mailQueue).where(eq(mailQueue.applicationId, who.id))).length,
      deliveries: (await server.app.db.select({ id: bankDeliveries.applicationId }).from(bankDeliveries).where(eq(bankDeliveries.applicationId, who.id))).length,
      texts: mails.map((mail) => mail.text),
    };
  };

  it('gives calls at the same moment one number, one mail and one hand-off, and moves the counter by one', async () => {
    const who = await verifiedApplication(server, { bankCode: '0181' });
    const address = (await judged(who)).mailAddress ?? '';
    const before = await counterOf('0181');
    const answers = await Promise.all([1, 2, 3, 4].map(() => complete(server, who)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    const numbers = new Set(answers.map((answer) => answer.json<{ applicationNumber: string }>().applicationNumber));
    expect(numbers).toEqual(new Set([formatApplicationNumber('0181', japanIsoDate(server.clock.now()), before + 1)]));
    expect(await counterOf('0181')).toBe(before + 1);
    expect(await sideEffects(who, address)).toMatchObject({ queued: 0, deliveries: 1, mailed: 1 });
  });

  it('completes nothing and draws no number when a new identity check began after the judgement', async () => {
    const who = await verifiedApplication(server);
    const state = await judged(who);
    expect(state.completionFacts.ekyc?.status).toBe(EKYC_STATUS.bankerProcessing);
    // Another tab's start whose session check still saw the earlier check pending.
    await server.app.db.insert(ekycSessions).values({
      applicationId: who.id,
      applicationType: 'GENERAL',
      provider: 'simulator',
      providerSessionId: `race-${who.id}`,
      url: 'https://ekyc.invalid/race',
      status: EKYC_STATUS.created,
      startedAt: server.clock.now(),
      updatedAt: server.clock.now(),
    });
    const before = await counterOf(who.bankCode);
    const result = await completeAsJudged(who, state);
    expect(result).toMatchObject({ completed: false, state: { applicationNumber: null, completionFacts: { ekyc: { status: EKYC_STATUS.created } } } });
    expect(await counterOf(who.bankCode)).toBe(before);
    expect(await sideEffects(who, state.mailAddress ?? '')).toMatchObject({ queued: 0, deliveries: 0, mailed: 0 });
    // The route judges what stands: the newest check is not approved.
    expect((await complete(server, who)).json()).toEqual({ message: httpMessages.ekycNotApproved });
  });

  it('answers the number of the completion that came first, and draws none of its own', async () => {
    const who = await verifiedApplication(server);
    const state = await judged(who);
    const first = (await complete(server, who)).json<{ applicationNumber: string }>();
    const before = { counter: await counterOf(who.bankCode), ...(await sideEffects(who, state.mailAddress ?? '')) };
    const late = await completeAsJudged(who, state);
    expect(late).toMatchObject({ completed: false, state: { applicationNumber: first.applicationNumber } });
    expect({ counter: await counterOf(who.bankCode), ...(await sideEffects(who, state.mailAddress ?? '')) }).toEqual(before);
    expect(before).toMatchObject({ deliveries: 1, mailed: 1 });
  });

  it('writes the number as formatApplicationNumber does, into the answer, the row and the mail', async () => {
    const who = await verifiedApplication(server, { bankCode: '0587' });
    const day = japanIsoDate(server.clock.now());
    await server.app.db
      .insert(applicationNumberCounters)
      .values({ bankCode: '0587', day, lastValue: 41 })
      .onConflictDoUpdate({ target: [applicationNumberCounters.bankCode, applicationNumberCounters.day], set: { lastValue: 41 } });
    const state = await judged(who);
    const result = await completeAsJudged(who, state);
    const expected = formatApplicationNumber('0587', day, 42);
    expect(result).toMatchObject({ completed: true, applicationNumber: expected });
    const [row] = await server.app.db.select({ number: applications.applicationNumber }).from(applications).where(eq(applications.id, who.id));
    expect(row?.number).toBe(expected);
    const { texts } = await sideEffects(who, state.mailAddress ?? '');
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain(`お申込み番号：${expected}`);
    expect(texts[0]).not.toContain(NUMBER_SLOT);
  });
});
