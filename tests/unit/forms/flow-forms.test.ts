import { describe, expect, it } from 'vitest';
import { formFor } from '../../../src/domain/forms/flow-forms';
import type { FormSchema } from '../../../src/domain/forms/format';

/** One overlay per flow (x-flows), laid over the form: the one way a form varies by flow. */
describe('formFor', () => {
  const schema: FormSchema = {
    title: 'お客さま情報',
    'x-step': { post: '/applications/x', intro: 'あなたの情報', summary: [{ term: 'a', fields: ['a'] }] },
    'x-ui': { a: { 'ui:options': { autocomplete: 'name', group: true } } },
    properties: { a: { type: 'string' }, b: { type: 'string', 'x-when': { field: 'a', answered: true } } },
    'x-flows': {
      child: {
        'x-step': { intro: 'お子さまの情報', summary: [] },
        'x-ui': { a: { 'ui:options': { autocomplete: 'off' } } },
        properties: { b: { 'x-when': false } },
      },
    },
  };

  it('lays the flow\'s overlay over the form: objects merged, texts and lists replaced', () => {
    const child = formFor(schema, 'child');
    expect(child['x-step']).toEqual({ post: '/applications/x', intro: 'お子さまの情報', summary: [] });
    expect(child['x-ui']).toEqual({ a: { 'ui:options': { autocomplete: 'off', group: true } } });
    expect(child.properties?.b).toEqual({ type: 'string', 'x-when': false });
    expect(child['x-flows']).toBeUndefined();
  });

  it('gives a flow without an overlay the form as it is, and the same object each time', () => {
    const general = formFor(schema, 'general');
    expect(general.properties?.b?.['x-when']).toEqual({ field: 'a', answered: true });
    expect(formFor(schema, 'general')).toBe(general);
  });
});
