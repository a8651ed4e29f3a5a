/**
 * Build step: turns every JSON Schema in schemas/ (SCHEMAS_DIR) into a precompiled ajv
 * validator module for the browser (src/client/generated/validators/<name>.js, or
 * VALIDATORS_DIR), so the bundle never calls `eval` or `new Function` (our CSP forbids
 * 'unsafe-eval'). The server compiles the very same files at start; vite.config.ts reads both
 * folders from the same variables.
 * Also writes the server's start-check validators (src/server/start-validators.ts) to
 * dist/validators/<name>.cjs, so a start does not compile those schemas with ajv.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { compileSchemaValidatorsCode } from '@rjsf/validator-ajv8/compileSchemaValidators';
import type { RJSFSchema } from '@rjsf/utils';
import { ajvOptions, extendAjv, validatorIdOf } from '../domain/schemas/ajv-setup';
import { resolvedFormSchema } from '../domain/forms/resolve';
import { flowStartSchema } from '../server/flows/check';
import { startSchemas, startValidatorCode, startValidatorsDir, startValidatorsCode, type StartSchema } from '../server/start-validators';
import { defaultSchemasDir, formsStartSchema, schemasById } from '../server/validation';
import { masterDataSchemas, masterDataStartSchema } from '../server/masterdata/load';

const root = new URL('../../', import.meta.url).pathname;
const schemaDir = resolve(root, process.env.SCHEMAS_DIR ?? 'schemas');
const outDir = resolve(root, process.env.VALIDATORS_DIR ?? 'src/client/generated/validators');

/**
 * ajv's standalone output is CommonJS (`exports["<schema id>"] = validateN`, with
 * `require("ajv/dist/runtime/…")` helpers): its ESM mode cannot export the hash ids rjsf gives
 * conditional sub-schemas. Wrap it as an ES module whose default export is that object.
 */
/**
 * What `require()` would return for an ESM namespace of a CommonJS helper, in Node (where the
 * namespace's default is module.exports) and in Rollup (where, for an __esModule module, it is
 * exports.default and the other exports are named): named exports such as ajv-formats'
 * `fullFormats` and the `default` export (ajv's `ucs2length`) are both reachable.
 */
const REQUIRE_SHIM = [
  'function __require(ns) {',
  '  const d = ns.default;',
  '  const base = d !== null && (typeof d === "object" || typeof d === "function") ? d : {};',
  '  const exp = Object.assign({}, ns, base);',
  '  exp.default = d !== null && d !== undefined && d.default !== undefined ? d.default : d !== undefined ? d : ns;',
  '  return exp;',
  '}',
].join('\n');

export function toEsm(code: string): string {
  const modules = [...new Set([...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1] as string))];
  const imports = modules.map((mod, i) => `import * as __runtime${i} from "${mod}.js";`);
  let body = code.replace(/^"use strict";\s*/, '');
  modules.forEach((mod, i) => {
    body = body.split(`require("${mod}")`).join(`__require(__runtime${i})`);
  });
  return `${imports.join('\n')}\n${REQUIRE_SHIM}\nconst exports = {};\nconst module = { exports };\n${body}\nexport default module.exports;\n`;
}

export function compileAll(): string[] {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  for (const file of readdirSync(schemaDir).filter((f) => f.endsWith('.schema.json')).sort()) {
    const name = basename(file, '.schema.json');
    const fileSchema = resolvedFormSchema(JSON.parse(readFileSync(join(schemaDir, file), 'utf8')) as RJSFSchema, relative(root, join(schemaDir, file)));
    const schema = { ...fileSchema, $id: validatorIdOf(name) };
    const code = compileSchemaValidatorsCode(schema, {
      ajvOptionsOverrides: { ...ajvOptions, code: { esm: false, lines: false, source: true } },
      extenderFn: extendAjv,
    });
    writeFileSync(join(outDir, `${name}.js`), toEsm(code));
    written.push(name);
  }
  return written;
}

const readJson = (file: string): object => JSON.parse(readFileSync(resolve(root, file), 'utf8')) as object;

/** The start checks' validators, each from the schema the server reads at start. */
export function compileStartChecks(): string[] {
  const checks: Array<[StartSchema, object]> = [
    [startSchemas.bank, readJson('banks/bank.schema.json')],
    [flowStartSchema, readJson('flows/flow.schema.json')],
    [startSchemas.checklist, readJson('checklists/checklist.schema.json')],
    [startSchemas.formFormat, readJson('schemas/format/form.schema.json')],
  ];
  rmSync(startValidatorsDir, { recursive: true, force: true });
  mkdirSync(startValidatorsDir, { recursive: true });
  for (const [spec, schema] of checks) writeFileSync(join(startValidatorsDir, `${spec.name}.cjs`), startValidatorCode(spec, schema));
  // The server's form validators, all in one ajv as the server has them (validation.ts).
  writeFileSync(join(startValidatorsDir, `${formsStartSchema.name}.cjs`), startValidatorsCode(formsStartSchema, schemasById(defaultSchemasDir)));
  const masterData = masterDataSchemas(resolve(root, 'banks'));
  writeFileSync(join(startValidatorsDir, `${masterDataStartSchema.name}.cjs`), startValidatorsCode(masterDataStartSchema, masterData.byId, masterData.refs));
  return [...checks.map(([spec]) => spec.name), formsStartSchema.name, masterDataStartSchema.name];
}

if (process.argv[1] && import.meta.url.endsWith(basename(process.argv[1]))) {
  const started = performance.now();
  const names = compileAll();
  const checks = compileStartChecks();
  console.log(`validators compiled: ${names.join(', ') || '(none)'}; start checks: ${checks.join(', ')} in ${Math.round(performance.now() - started)} ms`);
}
