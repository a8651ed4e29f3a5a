import type { Ajv, Options } from 'ajv';

/** ajv's options for the form format's meta-schema: every error at once, with the values, for the lint's messages. */
export const formFormatOptions: Options = { allErrors: true, verbose: true, strict: true, allowUnionTypes: true };

/** VS Code's descriptions of the values of a list (enumDescriptions): an annotation for editors, which ajv must know to compile strictly. */
export function withFormatAnnotations(ajv: Ajv): Ajv {
  ajv.addKeyword({ keyword: 'enumDescriptions' });
  return ajv;
}
