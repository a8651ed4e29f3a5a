/** One segment of a JSON pointer (RFC 6901): "~" and "/" escaped. */
export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
