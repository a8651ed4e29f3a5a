/**
 * A field with no control of its own (ui:widget 'hidden'), such as the address parts the
 * postal code search sets: its value lives in the form data only. rjsf's default renders an
 * <input type="hidden">, which React warns about for a null value and which nothing reads.
 */
export function HiddenWidget() {
  return null;
}
