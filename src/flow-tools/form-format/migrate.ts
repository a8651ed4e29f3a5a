import { FORM_FORMAT_SCHEMA_REF, FORM_FORMAT_VERSION, isRecord } from '../../domain/forms/format';

/**
 * Format migrations of a form file, oldest first (as XGov's form builder migrates its form
 * definitions): `npm run forms:migrate` brings every file of a schemas folder to
 * FORM_FORMAT_VERSION, and the lint refuses a file of an older version with the command to run.
 * A migration does what can be done without judgement; what it cannot translate it names, and
 * the file is left as it was.
 */

type Json = Record<string, unknown>;

/** What a migration needs to know of the flows: each application type's flow id. */
export interface MigrationFlows {
  idOfType: Readonly<Record<string, string>>;
}

export interface Migrated {
  schema: Json;
  /** What was done that a product owner may want to read (a row's condition dropped, …). */
  notes: string[];
}

export class MigrationRefused extends Error {}

/** The version a file says it is written in: a file without x-format is version 1. */
export function formatVersionOf(schema: unknown): number {
  const version = isRecord(schema) ? schema['x-format'] : undefined;
  return typeof version === 'number' ? version : 1;
}

function overlayOf(schema: Json, flows: MigrationFlows, type: string, pointer: string): Json {
  const id = flows.idOfType[type];
  if (id === undefined) throw new MigrationRefused(`${pointer} names the application type ${type}, which no flow of flows/ has`);
  const overlays = (schema['x-flows'] ??= {}) as Json;
  return (overlays[id] ??= {}) as Json;
}

function child(parent: Json, key: string): Json {
  return (parent[key] ??= {}) as Json;
}

/** { field, is } → { field, equals }, { field, isNot } → { field, notEquals }; the others as they are. */
function condition(when: Json): Json {
  if ('is' in when) return { field: when.field, equals: when.is };
  if ('isNot' in when) return { field: when.field, notEquals: when.isNot };
  return when;
}

/** A version 1 if/then/else the migration can read: a test of one field, and fields required in a branch. */
function conditionalRequired(entry: unknown, index: number): { test: Json; then: Json | undefined; else: Json | undefined } {
  const where = `/allOf/${index}`;
  if (!isRecord(entry) || !isRecord(entry.if)) throw new MigrationRefused(`${where} is not an if/then/else: rewrite it as x-when by hand (docs/forms.md, "Conditions")`);
  const { required, properties } = entry.if;
  const tested = Array.isArray(required) && required.length === 1 ? String(required[0]) : undefined;
  const test = tested !== undefined && isRecord(properties) ? properties[tested] : undefined;
  if (tested === undefined || !isRecord(test)) throw new MigrationRefused(`${where}/if tests something other than one field: rewrite it as x-when by hand`);
  let value: Json;
  if ('const' in test) value = { field: tested, equals: test.const };
  else if (isRecord(test.contains) && 'const' in test.contains) value = { field: tested, includes: test.contains.const };
  else if (Array.isArray(test.enum)) value = { field: tested, oneOf: test.enum };
  else throw new MigrationRefused(`${where}/if/properties/${tested} is neither a const, an enum nor a contains: rewrite it as x-when by hand`);
  return { test: value, then: isRecord(entry.then) ? entry.then : undefined, else: isRecord(entry.else) ? entry.else : undefined };
}

function negation(test: Json): Json {
  if ('equals' in test) return { field: test.field, notEquals: test.equals };
  return { not: test };
}

/** The fields a branch requires become required with the branch's condition as their x-when; the branch's messages move to the root's. */
function requireWhen(schema: Json, branch: Json, when: Json, notes: string[]): void {
  const required = Array.isArray(branch.required) ? branch.required.map(String) : [];
  const properties = child(schema, 'properties');
  for (const field of required) {
    const property = properties[field];
    if (!isRecord(property)) throw new MigrationRefused(`a branch requires "${field}", which is not a field of the form`);
    const own = property['x-when'];
    if (own !== undefined && JSON.stringify(own) !== JSON.stringify(when)) {
      property['x-when'] = { all: [own, when] };
      notes.push(`"${field}": its x-when and the if/then that required it are now one condition (all); check that it says what you mean`);
    } else property['x-when'] = when;
    const list = (schema.required ??= []) as unknown[];
    if (!list.includes(field)) list.push(field);
  }
  const messages = isRecord(branch.errorMessage) && isRecord(branch.errorMessage.required) ? branch.errorMessage.required : {};
  const root = child(child(schema, 'errorMessage'), 'required');
  for (const [field, message] of Object.entries(messages)) root[field] = message;
}

function migrateConditionals(schema: Json, notes: string[]): void {
  const all = schema.allOf;
  delete schema.allOf;
  if (!Array.isArray(all)) return;
  all.forEach((entry, index) => {
    const { test, then, else: otherwise } = conditionalRequired(entry, index);
    if (then) requireWhen(schema, then, test, notes);
    if (otherwise) requireWhen(schema, otherwise, negation(test), notes);
  });
  notes.push('the allOf/if/then/else became "required" with "x-when": a required field is required only while it is asked');
}

function migrateFields(schema: Json, flows: MigrationFlows): void {
  for (const [field, property] of Object.entries(isRecord(schema.properties) ? schema.properties : {})) {
    if (!isRecord(property) || !isRecord(property['x-when'])) continue;
    const when = property['x-when'];
    if ('for' in when) {
      // Asked in one flow only: not asked in the others.
      delete property['x-when'];
      for (const type of Object.keys(flows.idOfType)) {
        if (type === when.for) continue;
        const overlaid = child(overlayOf(schema, flows, type, `/properties/${field}/x-when`), 'properties');
        overlaid[field] = { ...(isRecord(overlaid[field]) ? overlaid[field] : {}), 'x-when': false };
      }
    } else property['x-when'] = condition(when);
  }
}

function migrateUi(schema: Json, flows: MigrationFlows, notes: string[]): void {
  const ui = isRecord(schema['x-ui']) ? schema['x-ui'] : {};
  const properties = isRecord(schema.properties) ? schema.properties : {};
  for (const [field, entry] of Object.entries(ui)) {
    if (!isRecord(entry) || !isRecord(entry['ui:options'])) continue;
    const options = entry['ui:options'];
    const property = properties[field];
    for (const [option, keyword] of [['requiredWhen', 'x-required-when'], ['readonlyWhen', 'x-locked-when']] as const) {
      if (options[option] === undefined) continue;
      if (isRecord(property)) property[keyword] = { condition: options[option] };
      delete options[option];
    }
    // The model says what is required; a widget reads its normaliser from x-normalize.
    for (const dropped of ['requirement', 'kana']) delete options[dropped];
    if (Object.keys(options).length === 0) delete entry['ui:options'];
  }
  const forType = schema['x-ui-for'];
  delete schema['x-ui-for'];
  if (isRecord(forType)) for (const [type, over] of Object.entries(forType)) overlayOf(schema, flows, type, '/x-ui-for')['x-ui'] = over;
  if (isRecord(forType)) notes.push('x-ui-for moved into the overlays of x-flows');
}

function migrateStep(schema: Json, flows: MigrationFlows, notes: string[]): void {
  const step = schema['x-step'];
  if (!isRecord(step)) return;
  const perType: Array<[string, string]> = [
    ['introFor', 'intro'],
    ['notes', 'note'],
    ['summaryTitleFor', 'summaryTitle'],
  ];
  for (const [v1, v2] of perType) {
    const byType = step[v1];
    delete step[v1];
    if (!isRecord(byType)) continue;
    for (const [type, text] of Object.entries(byType)) child(overlayOf(schema, flows, type, `/x-step/${v1}`), 'x-step')[v2] = text;
  }
  if (!Array.isArray(step.summary)) return;
  const rows = step.summary as Json[];
  const typed = rows.some((row) => 'for' in row);
  for (const row of rows) {
    if ('when' in row) notes.push(`the summary row "${String(row.term)}" lost its "when": a row is shown when one of its fields is asked`);
    delete row.when;
  }
  if (!typed) return;
  // Rows for one application type: each flow's list of rows in its overlay, the base keeps those for all.
  for (const [type] of Object.entries(flows.idOfType)) {
    const own = rows.filter((row) => row.for === undefined || row.for === type).map(({ for: _type, ...row }) => row);
    child(overlayOf(schema, flows, type, '/x-step/summary'), 'x-step').summary = own;
  }
  step.summary = rows.filter((row) => row.for === undefined);
  notes.push('summary rows for one application type moved into the overlays of x-flows (each flow its own list)');
}

/** Version 1 (no x-format) → 2: conditions in one language, one overlay per flow, the meta-schema named. */
function toVersion2(source: Json, flows: MigrationFlows): Migrated {
  const schema = structuredClone(source);
  const notes: string[] = [];
  migrateFields(schema, flows);
  migrateConditionals(schema, notes);
  migrateUi(schema, flows, notes);
  migrateStep(schema, flows, notes);
  const { $schema: _old, $id, ...rest } = schema;
  return { schema: { $schema: FORM_FORMAT_SCHEMA_REF, ...($id === undefined ? {} : { $id }), 'x-format': 2, ...rest }, notes };
}

const migrations: Record<number, (schema: Json, flows: MigrationFlows) => Migrated> = { 1: toVersion2 };

/** The file brought to the current version (unchanged when it is already); throws MigrationRefused naming what it cannot translate. */
export function migrateForm(schema: Json, flows: MigrationFlows): Migrated {
  let current: Migrated = { schema, notes: [] };
  for (let version = formatVersionOf(schema); version < FORM_FORMAT_VERSION; version++) {
    const step = migrations[version];
    if (!step) throw new MigrationRefused(`no migration from form format ${version}`);
    const next = step(current.schema, flows);
    current = { schema: next.schema, notes: [...current.notes, ...next.notes] };
  }
  return current;
}
