import { OTHER_OCCUPATION_NAME } from '../../domain/rules/index.js';
import type { Occupation } from './types.js';

export { OTHER_OCCUPATION_NAME };

/** The select's order: by displayNumber (then id), with その他 last whatever its number. */
export function compareOccupations(a: Occupation, b: Occupation): number {
  const otherA = a.name === OTHER_OCCUPATION_NAME ? 1 : 0;
  const otherB = b.name === OTHER_OCCUPATION_NAME ? 1 : 0;
  return otherA - otherB || a.displayNumber - b.displayNumber || a.id - b.id;
}
