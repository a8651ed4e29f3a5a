import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { keywordsOf } from '../../../src/flow-tools/form-format/reference';
import { withVocabulary } from '../../../src/flow-tools/form-format/vocabulary';
import { widgets } from '../../../src/client/forms/widgets';
import { widgetNames } from '../../../src/domain/forms/ui-vocabulary';

/** The form format's meta-schema (schemas/format/form.schema.json): the one documented format, kept with the code. */
const metaSchema = JSON.parse(readFileSync(new URL('../../../schemas/format/form.schema.json', import.meta.url), 'utf8')) as unknown;

describe('the form format', () => {
  it('has a description for every keyword, where it stands (the reference and an editor\'s hints)', () => {
    const silent = keywordsOf(metaSchema).filter((keyword) => keyword.description === undefined || keyword.description.length < 10);
    expect(silent.map((keyword) => keyword.path)).toEqual([]);
    expect(keywordsOf(metaSchema).length).toBeGreaterThan(100);
  });

  it('lists the registries\' names as the code has them: run npm run forms:format after adding one', () => {
    expect(withVocabulary(metaSchema)).toEqual(metaSchema);
  });

  it('names only widgets the page\'s registry draws (rjsf\'s own names by the widget they stand for)', () => {
    const rjsfNames: Record<string, string> = { hidden: 'HiddenWidget', textarea: 'TextareaWidget', radio: 'RadioWidget', select: 'SelectWidget', checkbox: 'CheckboxWidget' };
    for (const name of widgetNames) expect(Object.hasOwn(widgets, rjsfNames[name] ?? name), name).toBe(true);
  });
});
