/**
 * One clear message per error of a JSON Schema of the product files (flows/flow.schema.json,
 * the form format's schemas/format/form.schema.json): an unknown key with the allowed ones and
 * a "Did you mean", a value outside its list with the list, a wrong type named in words. Shared
 * by the flow lint's flow-schema rule and the form lint's form-format rule.
 */
import type { ErrorObject } from 'ajv';
import { escapePointerSegment } from '../../domain/json-pointer';
import { suggestion, withChoices } from './words';

const patternMeanings: Record<string, string> = {
  '^/': 'must start with "/"',
  '^[A-Za-z][A-Za-z0-9_]*$': 'must start with a letter and use only letters, digits and "_" (no ".", "#", "-" or spaces)',
};

function typeOfJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return `the number ${value}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}

function lastSegment(pointer: string): string {
  const raw = pointer.slice(pointer.lastIndexOf('/') + 1);
  return raw.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The keys a schema allows, but those it lists only to refuse them ({ "not": {} }, with why). */
function allowedKeys(error: ErrorObject): string[] {
  const parent = error.parentSchema as { properties?: Record<string, unknown> } | undefined;
  return Object.entries(parent?.properties ?? {})
    .filter(([, schema]) => !(typeof schema === 'object' && schema !== null && 'not' in schema))
    .map(([key]) => key);
}

/** One clear message per schema error; undefined for errors that only repeat another one. */
export function schemaProblem(error: ErrorObject, all: ErrorObject[]): { pointer: string; message: string } | undefined {
  const at = error.instancePath;
  const name = at === '' ? 'the file' : `"${lastSegment(at)}"`;
  switch (error.keyword) {
    case 'if':
    case 'propertyNames':
      return undefined; // the error inside the branch / the name pattern says it better
    case 'additionalProperties': {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      const allowed = allowedKeys(error);
      return {
        pointer: `${at}/${escapePointerSegment(key)}`,
        message: withChoices(`unknown key "${key}"`, key, 'allowed keys here', allowed),
      };
    }
    case 'required': {
      const missing = String((error.params as { missingProperty: string }).missingProperty);
      // A typo of this very key is already reported as an unknown key with "Did you mean".
      const typo = all.some(
        (e) =>
          e.keyword === 'additionalProperties' &&
          e.instancePath === at &&
          suggestion(String((e.params as { additionalProperty: string }).additionalProperty), [missing]) !== '',
      );
      return typo ? undefined : { pointer: at, message: `${name} is missing the required key "${missing}"` };
    }
    case 'type': {
      const expected = (error.params as { type: string | string[] }).type;
      const list = (Array.isArray(expected) ? expected : String(expected).split(',')).join(' or ');
      return { pointer: at, message: `${name} must be ${list}, not ${typeOfJson(error.data)}` };
    }
    case 'enum': {
      const allowed = ((error.params as { allowedValues: unknown[] }).allowedValues ?? []).map(String);
      return {
        pointer: at,
        message: withChoices(`${name} cannot be ${JSON.stringify(error.data)}`, String(error.data), 'allowed', allowed),
      };
    }
    case 'pattern': {
      const pattern = String((error.params as { pattern: string }).pattern);
      const meaning = patternMeanings[pattern] ?? `must match the pattern ${pattern}`;
      if (error.propertyName !== undefined) {
        return { pointer: `${at}/${escapePointerSegment(error.propertyName)}`, message: `state name "${error.propertyName}" ${meaning}` };
      }
      return { pointer: at, message: `${name} ${meaning}, not ${JSON.stringify(error.data)}` };
    }
    case 'const':
      return { pointer: at, message: `${name} must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}, not ${JSON.stringify(error.data)}` };
    case 'not': {
      // A keyword refused on purpose says why in its description (the form format's if/then/else).
      const why = (error.parentSchema as { description?: unknown } | undefined)?.description;
      return { pointer: at, message: typeof why === 'string' ? `${name}: ${why}` : `${name} is not allowed here` };
    }
    case 'minimum':
      return { pointer: at, message: `${name} must be at least ${String((error.params as { limit: number }).limit)}, not ${JSON.stringify(error.data)}` };
    case 'minLength':
    case 'minProperties':
    case 'minItems':
      return { pointer: at, message: `${name} must not be empty` };
    default:
      return { pointer: at, message: `${name} ${error.message ?? 'is invalid'}` };
  }
}

