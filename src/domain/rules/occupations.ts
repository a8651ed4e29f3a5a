import type { Occupation } from '../masterdata';
import { ageOn, type Today } from './dates';
import { OTHER_OCCUPATION_NAME } from './workplace';

/**
 * Which occupations an applicant is offered, and in which order (spec sections 2, 5, 6): an
 * adult (a general applicant, or a parent) sees those with generalDisplay; a child those with
 * childDisplay whose age bounds (inclusive, null = unbounded) contain the child's age, or all
 * of them while no age is known yet. The list is by displayNumber (then id), その他 last. The
 * page lists exactly these and the server accepts exactly these.
 */
export type OccupationAudience = { kind: 'adult' } | { kind: 'child'; age: number | null };

/** Who chooses: a general applicant is an adult; a child's list follows the child's birthday (none yet: all of the child's). */
export function occupationAudience(applicationType: 'GENERAL' | 'CHILD', birthday: string | null, today: Today): OccupationAudience {
  return applicationType === 'GENERAL' ? { kind: 'adult' } : { kind: 'child', age: birthday ? ageOn(birthday, today) : null };
}

export function isOccupationOffered(occupation: Occupation, audience: OccupationAudience): boolean {
  if (audience.kind === 'adult') return occupation.generalDisplay;
  if (!occupation.childDisplay) return false;
  const { age } = audience;
  if (age === null) return true;
  return (occupation.minDisplayAge === null || age >= occupation.minDisplayAge) && (occupation.maxDisplayAge === null || age <= occupation.maxDisplayAge);
}

/** The select's order: by displayNumber (then id), with その他 last whatever its number. */
export function compareOccupations(a: Occupation, b: Occupation): number {
  const otherA = a.name === OTHER_OCCUPATION_NAME ? 1 : 0;
  const otherB = b.name === OTHER_OCCUPATION_NAME ? 1 : 0;
  return otherA - otherB || a.displayNumber - b.displayNumber || a.id - b.id;
}

export function offeredOccupations(list: readonly Occupation[], audience: OccupationAudience): Occupation[] {
  return list.filter((occupation) => isOccupationOffered(occupation, audience)).sort(compareOccupations);
}

/**
 * The occupations offered to an applicant as the choices of a form (x-options source
 * "occupations"): the id, the name, and whether a workplace is then required (the rules read it).
 */
export function occupationOptions(list: readonly Occupation[], audience: OccupationAudience) {
  return offeredOccupations(list, audience).map((occupation) => ({
    value: occupation.id,
    label: occupation.name,
    data: { workplaceRequired: occupation.workplaceRequired },
  }));
}
