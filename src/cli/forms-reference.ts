/** `npm run forms:reference`: prints every keyword of the form format, with its description (src/flow-tools/form-format/reference.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { referenceOf } from '../flow-tools/form-format/reference.js';
import { repositoryRoot } from '../server/paths.js';

process.stdout.write(referenceOf(JSON.parse(readFileSync(join(repositoryRoot, 'schemas', 'format', 'form.schema.json'), 'utf8'))));
