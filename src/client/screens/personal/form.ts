import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { HIDDEN, mobilePhoneUi, homePhoneUi } from '../../forms/uiFragments';
import type { PublicBankConfig } from '../../../domain/bank/types';
import type { ApplicationType } from '../../../domain/flow/types';
import { needsDistanceReason, PURPOSE_OTHER_VALUE } from '../../../domain/rules';
import type { FormData } from '../../forms/SchemaForm';
import { ADDRESS_PART_FIELDS, PERSONAL_FIELDS_TO_POSTAL, PERSONAL_TYPED_ADDRESS_FIELDS } from '../../../domain/steps';
import { clearedAddress } from '../../forms/widgets/PostalAddressWidget';

/**
 * The personal step's form, apart from the screen: what GET /api/applications gives back as
 * form data, the uiSchema for the data as it stands (fields appear and disappear with the
 * applicant's choices), and the body of POST /api/applications/personal.
 */

/** Fields whose errors show at another field (they have no control of their own). */
export const ERROR_TARGETS: Readonly<Record<string, string>> = Object.fromEntries(ADDRESS_PART_FIELDS.map((field) => [field, 'postalNumber']));

const PERSONAL_FIELDS = [
  ...PERSONAL_FIELDS_TO_POSTAL,
  ...ADDRESS_PART_FIELDS,
  ...PERSONAL_TYPED_ADDRESS_FIELDS,
  'utilizationPurposeOther',
  'distanceTransactionReason',
] as const;

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function texts(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The stored application as form data: null is "not entered" (absent), the purposes a list. */
export function initialDataOf(application: Record<string, unknown> | null | undefined): FormData {
  const data: FormData = {};
  if (!application) return data;
  for (const field of PERSONAL_FIELDS) {
    const value = application[field];
    if (typeof value === 'string' && value !== '') data[field] = value;
  }
  const purposes = Array.isArray(application.utilizationPurposeList)
    ? texts(application.utilizationPurposeList)
    : text(application.utilizationPurpose).split(',').filter(Boolean);
  if (purposes.length > 0) data.utilizationPurpose = purposes;
  // A stored temporary address means the applicant said no address matched.
  data.noMatchingAddress = text(application.tempAddress) !== '' || text(application.tempAddressPrefecture) !== '';
  return data;
}

/** The prefecture the applicant lives in as entered so far (registered, or temporary). */
export function prefectureOf(data: FormData): string {
  return data.noMatchingAddress === true ? text(data.tempAddressPrefecture) : text(data.addressPrefecture);
}

/**
 * What a change of the 「該当する住所がない」 checkbox clears or presets: ticked, the searched
 * address no longer applies and the temporary address starts at the bank's prefecture;
 * unticked, the temporary address no longer applies.
 */
export function addressModePatch(next: FormData, previous: FormData, defaultPrefecture: string): FormData | null {
  const now = next.noMatchingAddress === true;
  const before = previous.noMatchingAddress === true;
  if (now === before) return null;
  if (now) {
    return {
      ...clearedAddress(),
      subAddress: undefined,
      kanaSubAddress: undefined,
      tempAddressPrefecture: text(next.tempAddressPrefecture) || defaultPrefecture,
    };
  }
  return { tempAddressPrefecture: undefined, tempAddress: undefined, kanaTempAddress: undefined };
}

const orNull = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/**
 * POST /api/applications/personal: the form data with what does not apply set to null
 * (the registered or the temporary address, その他 text, the distance reason) and optional
 * fields left empty as null.
 */
export function bodyOf(data: FormData, bank: Pick<PublicBankConfig, 'distanceTransactionReasonRequired' | 'homePrefecture'>): Record<string, unknown> {
  const noMatch = data.noMatchingAddress === true;
  const purposes = texts(data.utilizationPurpose);
  const registered = (field: string) => (noMatch ? null : orNull(data[field]));
  const temporary = (field: string) => (noMatch ? orNull(data[field]) : null);
  return {
    lastName: text(data.lastName),
    firstName: text(data.firstName),
    kanaLastName: text(data.kanaLastName),
    kanaFirstName: text(data.kanaFirstName),
    birthday: text(data.birthday),
    gender: text(data.gender),
    mobilePhoneNumber: text(data.mobilePhoneNumber),
    phoneNumber: orNull(data.phoneNumber),
    noMatchingAddress: noMatch,
    postalNumber: registered('postalNumber'),
    ...Object.fromEntries(ADDRESS_PART_FIELDS.map((field) => [field, registered(field)])),
    subAddress: registered('subAddress'),
    kanaSubAddress: registered('kanaSubAddress'),
    tempAddressPrefecture: temporary('tempAddressPrefecture'),
    tempAddress: temporary('tempAddress'),
    kanaTempAddress: temporary('kanaTempAddress'),
    utilizationPurpose: purposes,
    utilizationPurposeOther: purposes.includes(PURPOSE_OTHER_VALUE) ? orNull(data.utilizationPurposeOther) : null,
    distanceTransactionReason: needsDistanceReason(bank, prefectureOf(data)) ? orNull(data.distanceTransactionReason) : null,
  };
}


/** What of the data decides which fields show (few values, so the uiSchema is rebuilt rarely). */
export interface VisibleFields {
  /** 「該当する住所がない」: the temporary address instead of the postal code search. */
  noMatchingAddress: boolean;
  /** 'その他' among the purposes: its text. */
  purposeOther: boolean;
  /** Living outside the home prefecture of a bank that asks why. */
  distanceReason: boolean;
}

export function visibleFieldsOf(data: FormData, bank: Pick<PublicBankConfig, 'distanceTransactionReasonRequired' | 'homePrefecture'>): VisibleFields {
  return {
    noMatchingAddress: data.noMatchingAddress === true,
    purposeOther: texts(data.utilizationPurpose).includes(PURPOSE_OTHER_VALUE),
    distanceReason: needsDistanceReason(bank, prefectureOf(data)),
  };
}

export interface UiSchemaInput extends VisibleFields {
  bank: PublicBankConfig;
  applicationType: ApplicationType;
}

/** The uiSchema for the fields that show, in the order of a Japanese bank's paper form. */
export function personalUiSchema({ noMatchingAddress: noMatch, purposeOther, distanceReason: distance, bank, applicationType }: UiSchemaInput): UiSchema<FormData, RJSFSchema> {
  const child = applicationType === 'CHILD';
  return {
    'ui:order': [
      ...PERSONAL_FIELDS_TO_POSTAL,
      'noMatchingAddress',
      ...PERSONAL_TYPED_ADDRESS_FIELDS,
      'utilizationPurpose',
      'utilizationPurposeOther',
      'distanceTransactionReason',
      '*',
    ],
    lastName: {
      'ui:title': 'お名前（姓）',
      'ui:placeholder': '例：福岡',
      'ui:classNames': 'field--half',
      'ui:options': { autocomplete: child ? 'off' : 'family-name' },
    },
    firstName: {
      'ui:title': 'お名前（名）',
      'ui:placeholder': '例：花子',
      'ui:classNames': 'field--half',
      'ui:options': { autocomplete: child ? 'off' : 'given-name' },
    },
    kanaLastName: {
      'ui:title': 'フリガナ（セイ）',
      'ui:widget': 'KanaWidget',
      'ui:placeholder': '例：フクオカ',
      'ui:classNames': 'field--half',
    },
    kanaFirstName: {
      'ui:title': 'フリガナ（メイ）',
      'ui:widget': 'KanaWidget',
      'ui:placeholder': '例：ハナコ',
      'ui:classNames': 'field--half',
    },
    birthday: {
      'ui:title': '生年月日',
      'ui:widget': 'BirthdayWidget',
      'ui:options': { group: true, birthdayKind: child ? 'child' : 'general' },
    },
    gender: {
      'ui:title': '性別',
      'ui:widget': 'RadioCardsWidget',
      'ui:enumNames': ['男性', '女性'],
      'ui:options': { group: true },
    },
    mobilePhoneNumber: mobilePhoneUi,
    phoneNumber: homePhoneUi,
    postalNumber: noMatch ? HIDDEN : { 'ui:title': '郵便番号', 'ui:widget': 'PostalAddressWidget', 'ui:options': { requirement: 'required' } },
    noMatchingAddress: {
      'ui:title': '該当する住所がない',
      'ui:help': noMatch
        ? '本人確認書類に記載の住所を、都道府県から入力してください。'
        : '郵便番号で住所が見つからない場合はチェックを入れ、住所を直接入力してください。',
    },
    ...Object.fromEntries(ADDRESS_PART_FIELDS.map((field) => [field, HIDDEN])),
    subAddress: noMatch
      ? HIDDEN
      : {
          'ui:title': '番地・建物名・部屋番号',
          'ui:placeholder': '例：1-2-3 ふくおかマンション101',
          'ui:description': '本人確認書類に記載のとおりご入力ください。',
          'ui:options': { requirement: 'required', autocomplete: 'address-line2' },
        },
    kanaSubAddress: noMatch
      ? HIDDEN
      : {
          'ui:title': '番地・建物名・部屋番号（フリガナ）',
          'ui:widget': 'KanaWidget',
          'ui:placeholder': '例：1-2-3 フクオカマンション101',
          'ui:options': { requirement: 'required', kana: 'address' },
        },
    tempAddressPrefecture: noMatch ? { 'ui:title': '都道府県', 'ui:widget': 'PrefectureSelectWidget', 'ui:options': { requirement: 'required' } } : HIDDEN,
    tempAddress: noMatch
      ? {
          'ui:title': '住所（市区町村以降）',
          'ui:placeholder': '例：福岡市中央区天神1-2-3',
          'ui:options': { requirement: 'required', autocomplete: 'off' },
        }
      : HIDDEN,
    kanaTempAddress: noMatch
      ? {
          'ui:title': '住所（フリガナ）',
          'ui:widget': 'KanaWidget',
          'ui:placeholder': '例：フクオカシ テンジン1-2-3',
          'ui:options': { requirement: 'required', kana: 'address' },
        }
      : HIDDEN,
    utilizationPurpose: {
      'ui:title': '口座のご利用目的',
      'ui:widget': 'CheckboxesWidget',
      'ui:options': { group: true, multiSelect: true, choices: bank.UTILIZATION_PURPOSE_LIST },
    },
    utilizationPurposeOther: purposeOther
      ? {
          'ui:title': '「その他」のご利用目的',
          'ui:placeholder': '例：家賃の支払い',
          'ui:description': '24文字以内でご入力ください。',
          'ui:options': { requirement: 'required', autocomplete: 'off' },
        }
      : HIDDEN,
    distanceTransactionReason: distance
      ? {
          'ui:title': '遠隔地でのお取引の理由',
          'ui:widget': 'textarea',
          'ui:description': `${bank.homePrefecture}外にお住まいの方は、当行で口座を開設される理由をご入力ください（50文字以内）。`,
          'ui:placeholder': `例：${bank.homePrefecture}内の勤務先に通勤しているため`,
          'ui:options': { requirement: 'required', rows: 3 },
        }
      : HIDDEN,
  };
}
