/**
 * `npm run forms:format`: writes the registries' names (rules, named conditions, normalisers,
 * option sources, derivations, widgets, ui:options) into the form format's meta-schema,
 * schemas/format/form.schema.json, where an editor offers them with their descriptions. Run it
 * after adding a name in code; a unit test fails until the committed file has them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withVocabulary } from '../flow-tools/form-format/vocabulary.js';
import { repositoryRoot } from '../server/paths.js';

const file = join(repositoryRoot, 'schemas', 'format', 'form.schema.json');
const before = readFileSync(file, 'utf8');
const after = `${JSON.stringify(withVocabulary(JSON.parse(before)), null, 2)}\n`;
if (after === before) console.log('schemas/format/form.schema.json: up to date');
else {
  writeFileSync(file, after);
  console.log('schemas/format/form.schema.json: the registries\' names written in');
}
