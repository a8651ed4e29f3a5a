import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeFlow } from '../../src/domain/flow/model';
import { furthestStep, isResumeArrival, resumeSteps, type ResumeFacts } from '../../src/domain/flow/resume';
import type { FlowConfig } from '../../src/domain/flow/types';
import { SWAPPED_STEPS, swapAdjacentSteps } from '../model/swap';

/** The engine's test flows (tests/fixtures/flows: the shipped ones as these tests were written), not the product's. */
const config = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/flows/${name}.json`, import.meta.url), 'utf8')) as FlowConfig;
const general = describeFlow(config('general'));
const child = describeFlow(config('child'));

const facts = (forms: string[], documents: string[] = []): ResumeFacts => ({ forms: new Set(forms), documents: new Set(documents) });

describe('the furthest step of a resumed application (ADR 0030)', () => {
  it('lists the steps after the verification page along NEXT, in the flow order', () => {
    expect(resumeSteps(general).map((page) => page.path)).toEqual(['/personal', '/workplace', '/branch', '/seal-less', '/confirmation', '/pin', '/ekyc-preparation']);
    expect(resumeSteps(child).map((page) => page.path)).toEqual([
      '/child/personal',
      '/child/parent',
      '/child/branch',
      '/child/confirmation',
      '/child/pin',
      '/child/ekyc-preparation',
      '/child/ekyc-identification-documents',
      '/child/ekyc-supplementary-documents',
      '/child/parent-ekyc-preparation',
    ]);
  });

  it.each([
    [[], '/personal'],
    [['personal'], '/workplace'],
    [['personal', 'workplace'], '/branch'],
    [['personal', 'workplace', 'branch', 'sealLess'], '/confirmation'],
    [['personal', 'workplace', 'branch', 'sealLess', 'pin'], '/ekyc-preparation'],
  ])('general with %j stored goes on at %s', (forms, path) => {
    expect(furthestStep(general, facts(forms))?.path).toBe(path);
  });

  it('never goes on past a form the flow asks and the application lacks (an application moved onto another version, ADR 0032)', () => {
    // Moved from a version without the workplace page: completion would wait for that form.
    expect(furthestStep(general, facts(['personal', 'branch', 'sealLess']))?.path).toBe('/workplace');
    // A child has one kind of identity document or the other: a missing kind is no gap.
    const stored = ['personal', 'workplace', 'parent', 'parent-workplace', 'branch', 'pin'];
    expect(furthestStep(child, facts(stored, ['MATERNITY_HANDBOOK']))?.path).toBe('/child/parent-ekyc-preparation');
  });

  it('needs every form of a page: the child page of two forms, the parent page of two', () => {
    expect(furthestStep(child, facts(['personal']))?.path).toBe('/child/personal');
    expect(furthestStep(child, facts(['personal', 'workplace']))?.path).toBe('/child/parent');
    expect(furthestStep(child, facts(['personal', 'workplace', 'parent', 'parent-workplace']))?.path).toBe('/child/branch');
  });

  it('reads the child documents after the PIN', () => {
    const stored = ['personal', 'workplace', 'parent', 'parent-workplace', 'branch', 'pin'];
    expect(furthestStep(child, facts(stored))?.path).toBe('/child/ekyc-preparation');
    expect(furthestStep(child, facts(stored, ['INDIVIDUAL_NUMBER_CARD']))?.path).toBe('/child/ekyc-supplementary-documents');
    expect(furthestStep(child, facts(stored, ['INDIVIDUAL_NUMBER_CARD', 'MATERNITY_HANDBOOK']))?.path).toBe('/child/parent-ekyc-preparation');
  });

  it('goes on where the provider returns while a check is under way or approved, at the preparation after a refusal', () => {
    const stored = ['personal', 'workplace', 'branch', 'sealLess', 'pin'];
    expect(furthestStep(general, { ...facts(stored), ekycStatus: 1 })?.path).toBe('/ekyc-callback');
    expect(furthestStep(general, { ...facts(stored), ekycStatus: 4 })?.path).toBe('/ekyc-callback');
    expect(furthestStep(general, { ...facts(stored), ekycStatus: 9 })?.path).toBe('/ekyc-preparation');
    expect(furthestStep(child, { ...facts(stored), ekycStatus: 2 })?.path).toBe('/child/ekyc-callback');
  });

  it('follows an edited flow: seal-less moved before branch', () => {
    const swapped = describeFlow(swapAdjacentSteps(config('general'), SWAPPED_STEPS.first, SWAPPED_STEPS.second));
    expect(furthestStep(swapped, facts(['personal', 'workplace', 'sealLess']))?.path).toBe('/branch');
  });

  it('lets in the moves of a resume only: landing or error page to the verification, verification to a step', () => {
    expect(isResumeArrival(general, '/verification', '/term')).toBe(true);
    expect(isResumeArrival(general, '/verification', '/error')).toBe(true);
    expect(isResumeArrival(general, '/branch', '/verification')).toBe(true);
    expect(isResumeArrival(child, '/child/verification', '/child/before-check')).toBe(true);
    expect(isResumeArrival(child, '/child/parent', '/child/verification')).toBe(true);
    expect(isResumeArrival(general, '/branch', undefined)).toBe(false);
    expect(isResumeArrival(general, '/branch', '/term')).toBe(false);
    expect(isResumeArrival(general, '/complete', '/verification')).toBe(false);
    expect(isResumeArrival(general, '/verification', '/personal')).toBe(false);
  });
});
