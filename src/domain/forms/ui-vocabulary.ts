/**
 * The names a form's `x-ui` may use, each with what it does: the widgets of the page's registry
 * (src/client/forms/widgets/index.ts implements every one; a unit test keeps them equal) and the
 * `ui:options` keys they read. The lint refuses any other name with a "Did you mean", and the
 * form format's meta-schema (schemas/format/form.schema.json) lists the same names for an editor.
 */

export const widgetDescriptions = {
  BirthdayWidget: 'a date as three selects (year, month, day); ui:options.birthdayKind chooses the years offered',
  PhoneWidget: 'a phone number in three boxes, sent hyphenated; ui:options.maxLengths, placeholders and partLabels, three each',
  RadioCardsWidget: 'the schema’s options as large cards side by side (ui:options.columns: 1 stacks them)',
  CheckboxesWidget: 'a list of choices, several may be ticked (with ui:options.multiSelect, the 複数選択可 hint)',
  KanaWidget: 'a katakana text, rewritten by the field’s x-normalize when the field is left, never during an IME composition',
  PostalAddressWidget: 'the postal code with 「住所を検索」 and the address candidates, which set the searched address’s fields',
  PrefectureSelectWidget: 'the 47 prefectures as a select',
  ChoiceCardsWidget: 'the choices of the field’s x-options (bank data) as cards, with a description under each',
  ChoiceSelectWidget: 'the choices of the field’s x-options (bank data) as a select',
  CodeApplyWidget: 'a code with 「適用」 and 「クリア」: the bank’s answer fills what it brings and locks (ui:options.code names which code)',
  ExistingAccountWidget: 'はい/いいえ, then 店番 and 口座番号 (ui:options.accountField names the account number’s field)',
  FixedAnswerWidget: 'a field of one value (its schema default), shown as text',
  NormalizedTextWidget: 'a text rewritten by the field’s x-normalize when it is left (the workplace name to full width)',
  hidden: 'no control: the value is set by another widget or the server',
  textarea: 'a longer text over several lines (ui:options.rows)',
  radio: 'the schema’s options as radio cards (as RadioCardsWidget)',
  select: 'the schema’s options as a select (the default for a field with listed options)',
  checkbox: 'one checkbox labelled by the field’s title (the default for a yes/no without two titled options)',
} as const;
export type WidgetName = keyof typeof widgetDescriptions;
export const widgetNames = Object.keys(widgetDescriptions) as WidgetName[];

/** The kinds of code a CodeApplyWidget applies (src/client/forms/codes.ts implements each). */
export const codeKindNames = ['workplace', 'invitation'] as const;
export type CodeKindName = (typeof codeKindNames)[number];

/** What a ui:options key does, the widgets that read it ('*': every field), and the JSON Schema of its value. */
export interface UiOptionDescription {
  description: string;
  widgets: readonly WidgetName[] | '*';
  value: Record<string, unknown>;
}

const text = { type: 'string', minLength: 1 };
const threeTexts = { type: 'array', minItems: 3, maxItems: 3, items: text };

export const uiOptionDescriptions = {
  group: { description: 'the field is a group of controls: a fieldset named by its legend (the field’s title)', widgets: '*', value: { type: 'boolean' } },
  autocomplete: { description: 'the HTML autocomplete token of the input (family-name, organization, off, …)', widgets: '*', value: text },
  inputMode: { description: 'the keyboard a phone shows', widgets: '*', value: { enum: ['text', 'numeric', 'decimal', 'tel', 'email', 'url', 'search', 'none'] } },
  errorsAt: { description: 'the field has no control of its own: its errors show at (and focus) the named field', widgets: '*', value: text },
  initialFromBank: { description: 'an unanswered field starts with this setting of the bank (banks/<code>/bank.json, e.g. DEFAULT_TEMP_ADDRESS_PREFECTURE; code is the bank code) when it comes to be asked', widgets: '*', value: text },
  initialFromSaved: { description: 'an unanswered field starts with what the application already holds under this name (nothing is asked twice)', widgets: '*', value: text },
  birthdayKind: { description: 'the years BirthdayWidget offers', widgets: ['BirthdayWidget'], value: { enum: ['general', 'child', 'parent'] } },
  maxLengths: { description: 'the three boxes’ lengths', widgets: ['PhoneWidget'], value: { type: 'array', minItems: 3, maxItems: 3, items: { type: 'integer', minimum: 1 } } },
  placeholders: { description: 'the three boxes’ examples', widgets: ['PhoneWidget'], value: threeTexts },
  partLabels: { description: 'the three boxes’ accessible names', widgets: ['PhoneWidget'], value: threeTexts },
  multiSelect: { description: 'shows the 複数選択可 hint beside the title', widgets: ['CheckboxesWidget'], value: { type: 'boolean' } },
  rows: { description: 'the lines a textarea shows', widgets: ['textarea'], value: { type: 'integer', minimum: 1, maximum: 20 } },
  columns: { description: '1 stacks the cards one under the other (long labels)', widgets: ['RadioCardsWidget', 'radio'], value: { const: 1 } },
  code: { description: 'which code 「適用」 asks the bank about', widgets: ['CodeApplyWidget'], value: { enum: [...codeKindNames] } },
  accountField: { description: 'the field of the account number the yes/no section also fills', widgets: ['ExistingAccountWidget'], value: text },
} as const satisfies Record<string, UiOptionDescription>;
export type UiOptionName = keyof typeof uiOptionDescriptions;
export const uiOptionNames = Object.keys(uiOptionDescriptions) as UiOptionName[];

/** The ui:options a widget cannot do without. */
export const requiredUiOptions: Partial<Record<WidgetName, readonly UiOptionName[]>> = {
  CodeApplyWidget: ['code'],
  ExistingAccountWidget: ['accountField'],
};

/** The keys a field's entry in x-ui may have, besides ui:options. */
export const uiFieldKeyDescriptions = {
  'ui:widget': 'the widget that draws the field (widgetNames)',
  'ui:title': 'the label, instead of the schema’s title',
  'ui:description': 'a hint under the label',
  'ui:placeholder': 'an example inside the empty input',
  'ui:help': 'a note under the control',
  'ui:classNames': 'a layout class: field--half puts two fields side by side',
  'ui:enumNames': 'the labels of an enum’s values, in its order',
  'ui:options': 'the widget’s options (uiOptionNames)',
} as const;
export const uiFieldKeys = Object.keys(uiFieldKeyDescriptions);
