/**
 * The product's specification tests (this folder): they pin the shipped flows/, schemas/,
 * checklists/ and banks/ to ../shared/spec.md. Each names the sentence it checks, in its title,
 * as `spec('§5 Names', 'combined length including the full-width space at most 24')`, so a
 * failure after an edit of those folders says which sentence of the specification the edit
 * changed. The engine's tests (every other folder of tests/) pass on any edit the lint accepts.
 */
export function spec(section: string, sentence: string): string {
  return `spec ${section}: ${sentence}`;
}
