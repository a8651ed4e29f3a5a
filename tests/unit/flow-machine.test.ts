import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { machineAt, topLevelState } from '../../src/client/runtime/machine';
import type { FlowImplementations } from '../../src/client/runtime/implementations';
import { describeFlow } from '../../src/domain/flow/model';
import type { FlowConfig } from '../../src/domain/flow/types';
import { actionNames, actorNames, type ActionName, type ActorName } from '../../src/domain/flow/vocabulary';

const flow = (name: string) => describeFlow(JSON.parse(readFileSync(new URL(`../../flows/${name}.json`, import.meta.url), 'utf8')) as FlowConfig);

/**
 * Implementations that only count what runs, so the test sees which state's entry actions and
 * invocations a page's machine executes. (The real ones call the API; here only the wiring of
 * machineAt is under test.)
 */
function counting() {
  const runs: string[] = [];
  const actions = Object.fromEntries(actionNames.map((name) => [name, () => void runs.push(`action:${name}`)])) as Record<ActionName, () => void>;
  const actors = Object.fromEntries(
    actorNames.map((name) => [
      name,
      fromPromise(async () => {
        runs.push(`actor:${name}`);
        return { status: 4, supplement: false, url: 'https://provider.example/' };
      }),
    ]),
  ) as Record<ActorName, ReturnType<typeof fromPromise>>;
  const implementations: FlowImplementations = { actions, guards: { supplementRequested: () => false, photoIdOffered: () => true, jpkiOffered: () => true, childDocumentImagesOffered: () => true }, actors };
  return { runs, implementations };
}

describe('machineAt: a page runs only its own state', () => {
  it('reaching /redirect from the eKYC return does not start the completion there (the /redirect page does, once)', async () => {
    const general = flow('general');
    const { runs, implementations } = counting();
    const callback = createActor(machineAt(general, 'ekycCallback', implementations)).start();
    await waitFor(callback, (snapshot) => topLevelState(snapshot.value) !== 'ekycCallback');
    expect(topLevelState(callback.getSnapshot().value)).toBe('redirect');
    expect(runs).toEqual(['actor:pollEkycStatus']);
    callback.stop();

    const redirect = createActor(machineAt(general, 'redirect', implementations)).start();
    await waitFor(redirect, (snapshot) => topLevelState(snapshot.value) === 'complete');
    expect(runs).toEqual(['actor:pollEkycStatus', 'actor:completeApplication']);
    redirect.stop();
  });

  it('the entry actions of the next page run on that page, not on the way out of this one', () => {
    const general = flow('general');
    const { runs, implementations } = counting();
    const term = createActor(machineAt(general, 'term', implementations)).start();
    expect(runs).toEqual(['action:clearSessionStorage']); // /term's own entry
    term.send({ type: 'NEXT' });
    expect(topLevelState(term.getSnapshot().value)).toBe('verification');
    // The transition's own action runs; /verification's entry (forgetAuthenticationToken) does not yet.
    expect(runs).toEqual(['action:clearSessionStorage', 'action:storeBankCode']);
    createActor(machineAt(general, 'verification', implementations)).start();
    expect(runs).toEqual(['action:clearSessionStorage', 'action:storeBankCode', 'action:forgetAuthenticationToken']);
  });

  it('a page with inner steps keeps them (child /child/verification: address, then code)', () => {
    const child = flow('child');
    const { implementations } = counting();
    const verification = createActor(machineAt(child, 'verification', implementations)).start();
    expect(verification.getSnapshot().value).toEqual({ verification: 'address' });
    verification.send({ type: 'CODE_SENT' });
    expect(verification.getSnapshot().value).toEqual({ verification: 'code' });
  });
});
