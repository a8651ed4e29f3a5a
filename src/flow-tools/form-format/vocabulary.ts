import { normalizerNames } from '../../domain/rules/normalizers';
import { formConditionDescriptions, formConditionNames, formRuleDescriptions, formRuleNames } from '../../domain/rules/registry';
import { derivationNames, optionSourceNames, storedEntityNames, summaryFormatNames } from '../../domain/forms/format';
import { uiOptionDescriptions, widgetDescriptions, widgetNames } from '../../domain/forms/ui-vocabulary';

/**
 * The names the form format's meta-schema (schemas/format/form.schema.json) lists, from the
 * registries that implement them: a name is added in code, and `npm run forms:format` writes
 * it into the meta-schema, where an editor offers it with its description. A unit test fails
 * while the committed meta-schema and the registries differ.
 */
export interface VocabularyEntry {
  /** JSON pointer of the list in the meta-schema. */
  pointer: string;
  values: readonly string[];
  /** Each value's description, in the same order (VS Code's enumDescriptions). */
  descriptions?: readonly string[];
}

const described = (names: readonly string[], descriptions: Readonly<Record<string, string>>) => names.map((name) => descriptions[name] ?? '');

export function formatVocabulary(): VocabularyEntry[] {
  return [
    { pointer: '/definitions/condition/anyOf/9/properties/condition', values: formConditionNames, descriptions: described(formConditionNames, formConditionDescriptions) },
    { pointer: '/definitions/field/properties/x-normalize', values: normalizerNames },
    { pointer: '/definitions/options/properties/source', values: optionSourceNames },
    { pointer: '/definitions/step/properties/rules/items', values: formRuleNames, descriptions: described(formRuleNames, formRuleDescriptions) },
    { pointer: '/definitions/step/properties/derive/items', values: derivationNames },
    { pointer: '/definitions/step/properties/storedAs', values: storedEntityNames },
    { pointer: '/definitions/summaryRow/properties/format', values: summaryFormatNames },
    { pointer: '/definitions/uiField/properties/ui:widget', values: widgetNames, descriptions: described(widgetNames, widgetDescriptions) },
  ];
}

/** The ui:options keys, each with the schema of its value, its description and the widgets that read it. */
export function uiOptionsProperties(): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(uiOptionDescriptions).map(([name, { description, widgets, value }]) => [
      name,
      { ...value, description: widgets === '*' ? description : `${description} (${widgets.join(', ')})` },
    ]),
  );
}

export const UI_OPTIONS_POINTER = '/definitions/uiField/properties/ui:options/properties';

function at(root: unknown, pointer: string): Record<string, unknown> {
  let node = root;
  for (const segment of pointer.slice(1).split('/')) {
    node = (node as Record<string, unknown> | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  if (typeof node !== 'object' || node === null) throw new Error(`the meta-schema has nothing at ${pointer}`);
  return node as Record<string, unknown>;
}

/** The meta-schema with the registries' names written in (a copy). */
export function withVocabulary(metaSchema: unknown): unknown {
  const copy = structuredClone(metaSchema);
  for (const { pointer, values, descriptions } of formatVocabulary()) {
    const node = at(copy, pointer);
    node.enum = [...values];
    if (descriptions) node.enumDescriptions = [...descriptions];
  }
  const optionsNode = at(copy, UI_OPTIONS_POINTER.slice(0, -'/properties'.length));
  optionsNode.properties = uiOptionsProperties();
  return copy;
}
