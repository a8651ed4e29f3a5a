import type { FocusEvent } from 'react';
import { isSubmitButton } from './ImeSafeInput';

/**
 * Blur of a group of controls (birthday selects, phone inputs, radio buttons): it counts only
 * when the focus leaves the whole group, so moving from 年 to 月 does not validate a half-chosen
 * date. Leaving for the submit button does not count either (the submit validates everything).
 */
export function leavesGroup(event: FocusEvent<HTMLElement>): boolean {
  const next = event.relatedTarget;
  if (isSubmitButton(next)) return false;
  return !(next instanceof Node && event.currentTarget.contains(next));
}
