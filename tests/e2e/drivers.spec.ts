import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { screenDrivers } from './drivers';

/**
 * The screen drivers know every event an applicant can send: each (meta.screen, event type)
 * pair of flows/general.json and flows/child.json, sub-states included (they are the same
 * screen). A new event in a flow file needs its driver before journeys can use it.
 */

interface StateNode {
  meta?: { screen?: string };
  on?: Record<string, unknown>;
  states?: Record<string, StateNode>;
}

function eventsOf(node: StateNode): string[] {
  return [...Object.keys(node.on ?? {}), ...Object.values(node.states ?? {}).flatMap(eventsOf)];
}

function screenEventsOf(file: string): string[] {
  const flow = JSON.parse(readFileSync(new URL(`../../flows/${file}`, import.meta.url), 'utf8')) as StateNode;
  return Object.values(flow.states ?? {}).flatMap((state) => {
    const screen = state.meta?.screen;
    return screen ? eventsOf(state).map((event) => `${screen} ${event}`) : [];
  });
}

test('a screen driver for every (screen, event) pair of the flows', () => {
  const pairs = [...new Set([...screenEventsOf('general.json'), ...screenEventsOf('child.json')])].sort();
  // The flows are read, not an empty list: the child flow's own screens are among them.
  expect(pairs).toContain('ChildBeforeCheck NEXT');
  expect(pairs).toContain('EkycPreparation START_EKYC');
  expect(pairs).toContain('EkycPreparation START_JPKI');
  const driven = Object.entries(screenDrivers).flatMap(([screen, events]) => Object.keys(events).map((event) => `${screen} ${event}`));
  expect(pairs.filter((pair) => !driven.includes(pair))).toEqual([]);
  // And no driver for an event no flow has (a renamed one left behind).
  expect(driven.filter((pair) => !pairs.includes(pair))).toEqual([]);
});
