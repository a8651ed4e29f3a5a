import type { UiSchema } from '@rjsf/utils';
import { OTHER_OCCUPATION_NAME } from '../../domain/rules';

/**
 * uiSchema pieces of the screens not yet drawn from their schema's x-ui (the parent's
 * workplace; /workplace has its own in schemas/workplace.schema.json) and of stepUi.
 */
export const HIDDEN = { 'ui:widget': 'hidden' } as const;

/** The occupation select and its 'その他' text, shown only when その他 is chosen. */
export function occupationUi(
  occupations: ReadonlyArray<{ id: number; name: string }>,
  chosen: { name: string } | undefined,
): { occupationId: UiSchema; occupationOther: UiSchema } {
  return {
    occupationId: {
      'ui:widget': 'ChoiceSelectWidget',
      'ui:title': 'ご職業',
      'ui:options': { choices: occupations.map((item) => ({ value: item.id, label: item.name })) },
    },
    occupationOther:
      chosen?.name === OTHER_OCCUPATION_NAME
        ? {
            'ui:title': 'ご職業（その他）',
            'ui:description': 'ご職業を具体的に入力してください（25文字以内）。',
            'ui:placeholder': '例：個人事業主',
            'ui:options': { requirement: 'required', autocomplete: 'off' },
          }
        : HIDDEN,
  };
}
