import { describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ValidateFunction } from 'ajv';
import { startSchemas, startValidator, startValidatorCode, startValidatorsCode } from '../../src/server/start-validators';
import { defaultSchemasDir, formsStartSchema, schemasById, toValidationFailure } from '../../src/server/validation';

const root = new URL('../../', import.meta.url).pathname;
const readJson = async (file: string) => JSON.parse(await readFile(path.join(root, file), 'utf8')) as Record<string, unknown>;

/** A bank.json with several faults at once (allErrors, verbose: the bad value is quoted). */
async function brokenBank(): Promise<Record<string, unknown>> {
  const bank = await readJson('banks/0177/bank.json');
  delete bank.NAME;
  return { ...bank, DOMAIN: 'not a host name!', TERM_OF_SERVICE_URL: 'nope', unknownKey: 1 };
}

/** Runs `use` on the module of `code` (written inside the repository, where its require("ajv/…") finds node_modules). */
async function withModule<T>(code: string, use: (module: Record<string, ValidateFunction>) => T): Promise<T> {
  await mkdir(path.join(root, 'node_modules', '.cache'), { recursive: true });
  const dir = await mkdtemp(path.join(root, 'node_modules', '.cache', 'start-validators-'));
  try {
    const file = path.join(dir, 'validators.cjs');
    await writeFile(file, code);
    return use(createRequire(import.meta.url)(file) as Record<string, ValidateFunction>);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('start-check validators compiled at build time', () => {
  it('the standalone code answers a broken bank.json with the very errors ajv compiled at start gives', async () => {
    const schema = await readJson('banks/bank.schema.json');
    const bank = await brokenBank();
    // A schema that differs from every build's: compiled now, by ajv.
    const compiled = startValidator(startSchemas.bank, { ...schema, title: `${String(schema.title)} (edited)` });
    expect(compiled(bank)).toBe(false);
    const strip = (errors: ValidateFunction['errors']) => JSON.parse(JSON.stringify(errors ?? [], (key, value: unknown) => (key === 'schema' || key === 'parentSchema' ? undefined : value))) as unknown;
    await withModule(startValidatorCode(startSchemas.bank, schema), ({ default: standalone }) => {
      expect(standalone?.(bank)).toBe(false);
      expect(strip(standalone?.errors)).toEqual(strip(compiled.errors));
      expect((standalone?.errors ?? []).length).toBeGreaterThanOrEqual(4);
    });
  });

  it('the forms compiled in one module answer a bad body with the Japanese messages the server\'s ajv gives', async () => {
    const byId = schemasById(defaultSchemasDir);
    // Another id than every build's: compiled now, by ajv.
    const compiled = startValidator(formsStartSchema, { ...byId['personal.schema.json'], $id: 'personal-edited.schema.json' });
    const body = { lastName: 'a'.repeat(200), firstNameKana: 'abc', birthDate: 'yesterday' };
    expect(compiled(body)).toBe(false);
    await withModule(startValidatorsCode(formsStartSchema, byId), ({ 'personal.schema.json': standalone }) => {
      expect(standalone?.(body)).toBe(false);
      const failure = toValidationFailure(standalone?.errors);
      expect(failure).toEqual(toValidationFailure(compiled.errors));
      expect(failure.errors.length).toBeGreaterThanOrEqual(3);
    });
  });

  it('a schema edited after the build is compiled from the edit, not taken from the build', async () => {
    const schema = await readJson('banks/bank.schema.json');
    const bank = await readJson('banks/0177/bank.json');
    expect(startValidator(startSchemas.bank, schema)(bank)).toBe(true);
    const stricter = {
      ...schema,
      properties: { ...(schema.properties as object), addedAfterTheBuild: { type: 'string' } },
      required: [...(schema.required as string[]), 'addedAfterTheBuild'],
    };
    const validate = startValidator(startSchemas.bank, stricter);
    expect(validate(bank)).toBe(false);
    expect(validate.errors?.[0]?.params).toEqual({ missingProperty: 'addedAfterTheBuild' });
  });

  it('a schema ajv refuses still stops the check with ajv\'s message', () => {
    expect(() => startValidator(startSchemas.checklist, { type: 'object', properties: { a: { type: 'strnig' } } })).toThrow(/schema is invalid: data\/properties\/a/);
  });
});
