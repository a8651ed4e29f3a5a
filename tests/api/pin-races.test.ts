import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { applicationPins, applications } from '../../src/server/db/schema.js';
import { storeDocumentBeforePin } from '../../src/server/forms/documents.js';
import { httpMessages } from '../../src/server/http-messages.js';
import { storePin } from '../../src/server/pin/store.js';
import { confirmedApplication, encryptPin, GOOD_PIN, postPin, publicKey, savedPersonal, type Signed } from './application-fixtures.js';
import { backends, testServerFor } from './helpers.js';

/**
 * The PIN's one statement (pin/store.ts, ADR 0040) against what may happen between the
 * session check whose answers judged the PIN and that statement: a step stored by another tab,
 * another PIN. The PIN is stored only against the answers that stand, and once.
 */

/** The personal step with a mobile number ending in GOOD_PIN: the PIN rules then refuse GOOD_PIN. */
const personalEndingInPin = { ...savedPersonal, mobilePhoneNumber: `090-1111-${GOOD_PIN}` };

describe.each(backends)('PIN races ($name)', (backend) => {
  const server = testServerFor(backend);

  const pinRows = async (who: Signed) => server.app.db.select().from(applicationPins).where(eq(applicationPins.applicationId, who.id));
  const revisionOf = async (who: Signed) => {
    const [row] = await server.app.db.select({ revision: applications.revision }).from(applications).where(eq(applications.id, who.id));
    return row?.revision ?? -1;
  };

  it('stores nothing for answers a step replaced after the judgement, and the route then judges by the new ones', async () => {
    const who = await confirmedApplication(server);
    const { keyId, keyCode, binding } = await publicKey(server, who);
    const judgedRevision = await revisionOf(who);
    const stored = await storeDocumentBeforePin(server.app.db, who.id, 'personal', { answers: personalEndingInPin, labels: {} }, server.clock.now());
    expect(stored.stored).toBe(true);
    const code = await encryptPin(keyCode, { pin: GOOD_PIN, binding });
    const write = { applicationId: who.id, keyId, ciphertext: code, now: server.clock.now() };
    expect(await storePin(server.app.db, { ...write, revision: judgedRevision })).toEqual({ stored: false, pinSet: false });
    expect(await pinRows(who)).toEqual([]);
    const response = await postPin(server, who, code, keyId);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: messages.pinPhone, errors: [{ field: 'pin', message: messages.pinPhone }] });
  });

  it('never stores a PIN and a step that makes it break a rule, whichever comes first', async () => {
    for (const delayMs of [0, 1, 2, 4, 8, 16]) {
      const who = await confirmedApplication(server);
      const { keyId, keyCode, binding } = await publicKey(server, who);
      const code = await encryptPin(keyCode, { pin: GOOD_PIN, binding });
      const [pin, step] = await Promise.all([
        postPin(server, who, code, keyId),
        new Promise((resolve) => setTimeout(resolve, delayMs)).then(() =>
          storeDocumentBeforePin(server.app.db, who.id, 'personal', { answers: personalEndingInPin, labels: {} }, server.clock.now()),
        ),
      ]);
      if (pin.statusCode === 200) {
        expect(step).toEqual({ stored: false, reason: 'locked' });
        expect(await pinRows(who)).toHaveLength(1);
      } else {
        expect(step.stored).toBe(true);
        expect(pin.statusCode).toBe(400);
        expect(pin.json()).toMatchObject({ message: messages.pinPhone });
        expect(await pinRows(who)).toEqual([]);
      }
    }
  });

  it('stores one of two PINs sent at once from two tabs, each with its own binding', async () => {
    const who = await confirmedApplication(server);
    const [first, second] = [await publicKey(server, who), await publicKey(server, who)];
    const answers = await Promise.all([
      postPin(server, who, await encryptPin(first.keyCode, { pin: GOOD_PIN, binding: first.binding }), first.keyId),
      postPin(server, who, await encryptPin(second.keyCode, { pin: '7391', binding: second.binding }), second.keyId),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)?.json()).toEqual({ message: httpMessages.pinAlreadySet });
    expect(await pinRows(who)).toHaveLength(1);
  });
});
