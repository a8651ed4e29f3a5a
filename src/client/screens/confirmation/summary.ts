import type { PublicBankConfig } from '../../../domain/bank/types';
import { parseIsoDate, PURPOSE_OTHER_VALUE, toJapaneseEra } from '../../../domain/rules';
import { fieldOrderOf, formStepOf, labelOfValue, optionFieldsOf, type FormSchema } from '../../../domain/schemas/form-step';
import type { ApplicationParentRecord, ApplicationRecord } from '../../api/application';
import { optionSummaries } from '../../forms/options';

/** One line of the summary: a term and its value (several lines when the value has parts). */
export interface SummaryItem {
  term: string;
  lines: string[];
}

export interface SummarySection {
  title: string;
  items: SummaryItem[];
}

/** The forms a flow asks (its pages' meta.form, in the order of its pages): the summary lists only what they asked. */
export type AskedForms = ReadonlySet<string>;

/** The schemas of the asked forms that have one of their own sections (x-step), by form name. */
export type FormSchemas = ReadonlyMap<string, FormSchema>;

/** The forms whose sections are written here by hand: they are not generic form steps yet. */
export const handWrittenForms = ['personal', 'parent', 'workplace'] as const;
type HandWrittenForm = (typeof handWrittenForms)[number];

export function isHandWritten(form: string): form is HandWrittenForm {
  return (handWrittenForms as readonly string[]).includes(form);
}

/** Each stored form's answers (GET /api/applications `forms`), by form name. */
export type StoredForms = Readonly<Record<string, Readonly<Record<string, unknown>> | null>>;

export const NOT_ENTERED = '未入力';

function present(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

const item = (term: string, ...values: Array<string | null | undefined>): SummaryItem => {
  const lines = values.filter(present);
  return { term, lines: lines.length > 0 ? lines : [NOT_ENTERED] };
};

/** '1990-04-01' → '1990年4月1日（平成2年）'. */
export function formatBirthday(birthday: string | null | undefined): string | null {
  const day = parseIsoDate(birthday);
  if (!day || !birthday) return null;
  return `${day.year}年${day.month}月${day.day}日（${toJapaneseEra(birthday).label}）`;
}

/** '8100001' → '810-0001'. */
export function formatPostalNumber(postalNumber: string | null | undefined): string | null {
  if (!postalNumber) return null;
  return /^\d{7}$/.test(postalNumber) ? `${postalNumber.slice(0, 3)}-${postalNumber.slice(3)}` : postalNumber;
}

const GENDER_LABELS: Record<string, string> = { MAN: '男性', WOMAN: '女性' };

/** The chosen purposes as the bank's own labels, in the bank's order; 'その他' with its text. */
export function purposeLabels(application: ApplicationRecord, bank: PublicBankConfig): string[] {
  const chosen = application.utilizationPurposeList ?? (application.utilizationPurpose ?? '').split(',').filter(Boolean);
  return bank.UTILIZATION_PURPOSE_LIST.filter((purpose) => chosen.includes(purpose.value)).map((purpose) =>
    purpose.value === PURPOSE_OTHER_VALUE && present(application.utilizationPurposeOther)
      ? `${purpose.label}（${application.utilizationPurposeOther}）`
      : purpose.label,
  );
}

function join(parts: Array<string | null | undefined>, separator: string): string | null {
  const given = parts.filter(present);
  return given.length > 0 ? given.join(separator) : null;
}

const RELATIONSHIP_LABELS: Record<string, string> = { FATHER: '父', MOTHER: '母' };
const PROXY_REASON_LABELS: Record<string, string> = { MINOR: 'お子さまが未成年のため' };

function occupationOf(name: string | null | undefined, other: string | null | undefined): string | null {
  return join([name, present(other) ? `（${other}）` : null], '');
}

/** The parent's section of the child flow's summary. */
export function parentSummaryOf(parent: ApplicationParentRecord): SummarySection {
  return {
    title: '親権者さまの情報',
    items: [
      item('お名前', join([parent.lastName, parent.firstName], '　')),
      item('お名前（フリガナ）', join([parent.kanaLastName, parent.kanaFirstName], ' ')),
      item('続柄', parent.relationship ? RELATIONSHIP_LABELS[parent.relationship] : null),
      item('生年月日', formatBirthday(parent.birthday)),
      item('携帯電話番号', parent.mobilePhoneNumber),
      { term: '自宅電話番号', lines: [present(parent.phoneNumber) ? parent.phoneNumber : 'なし'] },
      item('代理申込の理由', parent.proxyApplicationReason ? PROXY_REASON_LABELS[parent.proxyApplicationReason] : null),
      item('ご職業', occupationOf(parent.occupationName, parent.occupationOther)),
      item('お勤め先名', parent.workplaceName),
      item('お勤め先電話番号', parent.workplacePhoneNumber),
    ],
  };
}

/**
 * Everything entered in the steps before the confirmation, as the confirmation page lists it:
 * one section per form the flow asks (`asked`), in the order of its pages, so a flow without
 * the seal-less step shows no seal. The sections of generic form steps come from their
 * schemas (`schemas`) and stored answers (`forms`). With a parent (the child flow) the first
 * section is the child's, closing with the child's occupation and invitation code (a child has
 * no workplace: both come from /child/personal), and the parent's section follows it.
 */
export function summaryOf(
  application: ApplicationRecord,
  bank: PublicBankConfig,
  parent: ApplicationParentRecord | null,
  asked: AskedForms,
  schemas: FormSchemas,
  forms?: StoredForms | null,
): SummarySection[] {
  const temporary = !present(application.address) && (present(application.tempAddress) || present(application.tempAddressPrefecture));
  const customer: SummaryItem[] = [
    item('メールアドレス', application.mailAddress),
    item('お名前', join([application.lastName, application.firstName], '　')),
    item('お名前（フリガナ）', join([application.kanaLastName, application.kanaFirstName], ' ')),
    item('生年月日', formatBirthday(application.birthday)),
    item('性別', application.gender ? GENDER_LABELS[application.gender] : null),
    item('携帯電話番号', application.mobilePhoneNumber),
    { term: '自宅電話番号', lines: [present(application.phoneNumber) ? application.phoneNumber : 'なし'] },
    item('郵便番号', formatPostalNumber(application.postalNumber)),
    temporary
      ? item('ご住所（該当する住所なし）', join([application.tempAddressPrefecture, application.tempAddress], ''))
      : item('ご住所', application.address, application.subAddress),
    temporary
      ? item('ご住所（フリガナ）', application.kanaTempAddress)
      : item('ご住所（フリガナ）', join([application.kanaAddress, application.kanaSubAddress], ' ')),
    item('口座のご利用目的', ...purposeLabels(application, bank)),
  ];
  if (present(application.distanceTransactionReason)) {
    customer.push(item('遠隔地でのお取引の理由', application.distanceTransactionReason));
  }

  const occupation = occupationOf(application.occupationName, application.occupationOther);
  const invitation = item('紹介コード', application.invitationCode);
  if (parent) customer.push(item('ご職業', occupation), invitation);
  const work: SummaryItem[] = [
    item('ご職業', occupation),
    item('勤務先コード', application.workplaceCode),
    item('お勤め先名', application.workplaceName),
    item('お勤め先電話番号', application.workplacePhoneNumber),
  ];
  if (present(application.existedAccountBranchCode) && present(application.existedAccountNumber)) {
    work.push(item('お持ちの口座', `店番 ${application.existedAccountBranchCode}　口座番号 ${application.existedAccountNumber}`));
  }
  work.push(invitation);

  const handWritten: Record<HandWrittenForm, SummarySection | null> = {
    personal: { title: parent ? 'お子さまの情報' : 'お客さま情報', items: customer },
    parent: parent ? parentSummaryOf(parent) : null,
    workplace: { title: 'ご職業・お勤め先', items: work },
  };
  return [...asked].flatMap((form) => {
    if (isHandWritten(form)) {
      const section = handWritten[form];
      return section ? [section] : [];
    }
    const schema = schemas.get(form);
    return schema ? formSummaryOf(schema, forms?.[form] ?? {}) : [];
  });
}

/**
 * The section of a generic form step, from its schema alone: titled by x-step.summaryTitle (or
 * the schema's title), one line per field in the page's order, termed by the field's title. A
 * choice reads as the page offered it (its oneOf title); a choice filled from bank data with
 * its stored label (x-options labelAs). A form without x-step has no section (none: its screen
 * posts it itself, as the confirmation tick and the PIN do).
 */
export function formSummaryOf(schema: FormSchema, answers: Readonly<Record<string, unknown>>): SummarySection[] {
  const step = formStepOf(schema);
  if (!step) return [];
  const options = new Map(optionFieldsOf(schema).map(({ field, options: declared }) => [field, declared]));
  const items = fieldOrderOf(schema).flatMap((field) => {
    const property = schema.properties?.[field];
    if (!property) return [];
    const shown = labelOfValue(property, answers[field]);
    const labelAs = options.get(field)?.labelAs;
    const label = labelAs === undefined ? undefined : answers[labelAs];
    if (shown === null || typeof label !== 'string' || label === '') return [item(property.title ?? field, shown)];
    const source = options.get(field)?.source;
    const format = source === undefined ? undefined : optionSummaries[source];
    return [item(property.title ?? field, format ? format(label, shown) : `${label}（${shown}）`)];
  });
  return [{ title: step.summaryTitle ?? schema.title ?? '', items }];
}

/** The forms of a flow's pages. */
export function askedFormsOf(pages: ReadonlyArray<{ form?: string }>): AskedForms {
  return new Set(pages.flatMap((page) => (page.form ? [page.form] : [])));
}
