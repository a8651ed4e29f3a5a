import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { lineOfPointer, type FlowProblem } from '../../flow-tools/lint';
import { startSchemas, startValidator } from '../start-validators.js';

/**
 * The landing checklists (checklists/*.json) checked against checklists/checklist.schema.json
 * by the same lint that checks the flows and forms (the build and `npm run flows:check`), so a
 * product owner's broken edit is named with file, line and JSON path before it is built.
 * tests/unit/checklists.test.ts adds what a schema cannot say (links every bank has, message
 * keys, placeholders, unique ids).
 */
const SCHEMA_FILE = 'checklist.schema.json';

export function checklistProblems(dir: string): FlowProblem[] {
  if (!existsSync(join(dir, SCHEMA_FILE))) return [];
  const display = (file: string) => relative(process.cwd(), file) || file;
  const validate = startValidator(startSchemas.checklist, JSON.parse(readFileSync(join(dir, SCHEMA_FILE), 'utf8')) as object);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json') && name !== SCHEMA_FILE)
    .sort()
    .flatMap((name) => {
      const file = join(dir, name);
      const text = readFileSync(file, 'utf8');
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch (error) {
        return [{ file: display(file), pointer: '', line: 1, message: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` }];
      }
      if (validate(data)) return [];
      return (validate.errors ?? []).map((error) => ({
        file: display(file),
        pointer: error.instancePath,
        line: lineOfPointer(text, error.instancePath),
        message: `${error.message ?? 'is not valid'}${error.params && 'allowedValues' in error.params ? ` (${(error.params.allowedValues as unknown[]).join(', ')})` : ''}`,
      }));
    });
}
