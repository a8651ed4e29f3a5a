/**
 * `npm run forms:migrate [-- <schemas folder>]`: brings every form file of the folder (default
 * SCHEMAS_DIR, else schemas/) to the current form format, in place, and says what it did; a
 * file it cannot translate is named with why, and left as it was (exit 1).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repositoryRoot } from '../server/paths.js';
import { shippedFlowFiles } from '../server/flows/check.js';
import { formatVersionOf, migrateForm, MigrationRefused, type MigrationFlows } from '../flow-tools/form-format/migrate.js';
import { FORM_FORMAT_VERSION } from '../domain/forms/format.js';

const folder = resolve(process.argv[2] ?? process.env.SCHEMAS_DIR ?? join(repositoryRoot, 'schemas'));
const flowsDir = resolve(process.env.FLOWS_DIR ?? join(repositoryRoot, 'flows'));
const idOfType: Record<string, string> = {};
for (const file of shippedFlowFiles(flowsDir)) {
  const flow = JSON.parse(readFileSync(file, 'utf8')) as { id: string; meta: { applicationType: string } };
  idOfType[flow.meta.applicationType] ??= flow.id;
}
const flows: MigrationFlows = { idOfType };

let refused = 0;
for (const name of readdirSync(folder).filter((file) => file.endsWith('.schema.json')).sort()) {
  const path = join(folder, name);
  const schema = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const from = formatVersionOf(schema);
  if (from >= FORM_FORMAT_VERSION) continue;
  try {
    const { schema: migrated, notes } = migrateForm(schema, flows);
    writeFileSync(path, `${JSON.stringify(migrated, null, 2)}\n`);
    console.log(`${name}: format ${from} → ${FORM_FORMAT_VERSION}${notes.map((note) => `\n  - ${note}`).join('')}`);
  } catch (error) {
    if (!(error instanceof MigrationRefused)) throw error;
    refused++;
    console.error(`${name}: not migrated: ${error.message}`);
  }
}
if (refused > 0) process.exit(1);
console.log('forms: every file is in form format', FORM_FORMAT_VERSION, '(npm run flows:check says whether they are right)');
