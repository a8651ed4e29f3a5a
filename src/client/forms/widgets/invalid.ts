/**
 * The one rule for `aria-invalid` on a form control: set ("true") whenever its field shows an
 * error, absent otherwise. Every widget and the text input template use it, so no field can
 * show a message without saying it is invalid.
 */
export function invalidOf(rawErrors: readonly unknown[] | undefined): true | undefined {
  return (rawErrors?.length ?? 0) > 0 || undefined;
}
