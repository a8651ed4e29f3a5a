import Ajv from 'ajv';
import type { Options, ValidateFunction } from 'ajv';
import type { SourceRule } from '../rule';
import { schemaProblem } from '../schema-errors';

const validators = new WeakMap<object, ValidateFunction>();

/** ajv's options for the flow schema: here, and for the server's validator compiled at build time. */
export const flowSchemaOptions: Options = { allErrors: true, verbose: true, allowUnionTypes: true, strict: true };

function validatorFor(schema: object): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    const ajv = new Ajv(flowSchemaOptions);
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

export const flowSchema: SourceRule = {
  name: 'flow-schema',
  description: 'The shape of a flow file (flows/flow.schema.json): known keys, types, paths and state names, with one clear message per mistake.',
  stage: 'source',
  check({ source, schema, validate: given }, report) {
    const validate = given ?? validatorFor(schema);
    if (validate(source.value)) return;
    const errors = validate.errors ?? [];
    const seen = new Set<string>();
    for (const error of errors) {
      const p = schemaProblem(error, errors);
      if (!p || seen.has(`${p.pointer}\n${p.message}`)) continue;
      seen.add(`${p.pointer}\n${p.message}`);
      report(p.pointer, p.message);
    }
  },
};
