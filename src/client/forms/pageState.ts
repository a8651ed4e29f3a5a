import type { FormData } from './context';

/**
 * What a page keeps beside a field's answer while it is open: a code as typed and whether it
 * was found, the yes/no that opens the existing account's numbers. It lives in the form data
 * under `<field>@page`, so that it is drawn, checked and kept in a draft with the answers;
 * only the schema's own fields are ever posted (normalizeAnswers keeps nothing else).
 */
export const pageStateKey = (field: string) => `${field}@page`;

export function pageStateOf(data: FormData, field: string): unknown {
  return data[pageStateKey(field)];
}
