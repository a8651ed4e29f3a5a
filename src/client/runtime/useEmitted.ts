import { useEffect, useEffectEvent } from 'react';
import type { AnyActorRef, AnyMachineSnapshot, EventObject } from 'xstate';

/**
 * Calls `listener` with every event of `type` that an actor invoked by the page's state emits
 * (XState's `emit`, read with the child's `on`): how a long-running invocation, such as the
 * eKYC poller, tells its screen how far it got, through the page's actor rather than module
 * state. The children are the snapshot's; a new set of children is listened to afresh.
 */
export function useEmitted<E extends EventObject>(snapshot: AnyMachineSnapshot, type: E['type'], listener: (event: E) => void): void {
  const onEvent = useEffectEvent((event: E) => listener(event));
  // AnyMachineSnapshot leaves its children untyped; a screen rendered without a running machine
  // (a component test's stand-in snapshot) has none.
  const children = snapshot.children as Record<string, AnyActorRef | undefined> | undefined;
  useEffect(() => {
    const subscriptions = Object.values(children ?? {}).flatMap((child) => (child ? [child.on(type, (event: EventObject) => onEvent(event as E))] : []));
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [children, type]);
}
