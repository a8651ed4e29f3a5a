import type { UiSchema } from '@rjsf/utils';
import { OTHER_OCCUPATION_NAME } from '../../domain/rules';

/**
 * uiSchema pieces several screens share (personal, parent, workplace), written once so a
 * label, a placeholder or an input hint cannot drift between the applicant's and the
 * parent's forms.
 */
export const HIDDEN = { 'ui:widget': 'hidden' } as const;

export const mobilePhoneUi: UiSchema = {
  'ui:title': '携帯電話番号',
  'ui:widget': 'PhoneWidget',
  'ui:options': {
    group: true,
    maxLengths: [3, 4, 4],
    placeholders: ['090', '1234', '5678'],
    partLabels: ['携帯電話番号（最初の3桁）', '携帯電話番号（中の4桁）', '携帯電話番号（最後の4桁）'],
  },
};

export const homePhoneUi: UiSchema = {
  'ui:title': '自宅電話番号',
  'ui:widget': 'PhoneWidget',
  'ui:description': 'ご自宅に固定電話がある場合にご入力ください。',
  'ui:options': { group: true, maxLengths: [5, 4, 4], placeholders: ['092', '123', '4567'] },
};

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
