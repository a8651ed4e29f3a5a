/** Spaces, half and full width, at the ends of a text: every trim of an answer uses this. */
export const SPACES_AT_ENDS = /^[\s\u3000]+|[\s\u3000]+$/g;

/** The text without spaces (half or full width) at its ends; '' for none. */
export function trimSpaces(text: string | null | undefined): string {
  return (text ?? '').replace(SPACES_AT_ENDS, '');
}
