/**
 * Screen texts of the general pre-application check. The spec gives most gate messages only
 * in English (section 5); these are the bank's Japanese wording. The one it gives in Japanese
 * (regulations disagreed) comes from src/domain/messages.ts word for word.
 */
import { messages } from '../../../domain/messages';

export const PASSBOOK_FEE = '1,100円（税込）';

export const termTexts = {
  intro: (bankName: string) =>
    `${bankName}の普通預金口座を、スマートフォンからお申込みいただけるサービスです。通帳を発行しない口座で、原則として印鑑（お届け印）の登録も不要です。`,
  introNext: 'お申込みの前に、以下の質問にお答えください。',
  refusalNote: '※ 条件を満たしている場合でも、当行の判断により口座開設をお断りする場合がございます。あらかじめご了承ください。',

  firstAccount: (bankName: string) => `${bankName}で初めて口座を開設されますか？`,
  firstAccountNo: (bankName: string) =>
    `すでに${bankName}の口座をお持ちの方は、本サービスをご利用いただけません。口座の開設をご希望の場合は、お近くの店舗にご相談ください。ご来店の際は、来店予約をご利用いただけます。`,

  identityDocument: '次のいずれかの本人確認書類をお持ちで、記載されている住所が現在お住まいの住所と同じですか？',
  identityDocuments: ['運転免許証', 'マイナンバーカード（個人番号カード）', '住民基本台帳カード', '運転経歴証明書'],
  identityDocumentNo:
    '本人確認書類をお持ちでない方、または本人確認書類の住所が現在の住所と異なる方は、本サービスをご利用いただけません。本人確認書類をご用意のうえ改めてお申込みいただくか、お近くの店舗にご相談ください。ご来店の際は、来店予約をご利用いただけます。',

  adult: '満18歳以上ですか？',
  adultNo: '満18歳未満の方は、本サービスをご利用いただけません。',

  eligibility: '次のすべてに該当しますか？',
  eligibilityConditions: [
    '日本国籍をお持ちである',
    '日本国内にお住まいで、納税義務のある国（税務上の居住地）が日本のみである',
    '外国PEPs（外国の重要な公的地位にある方およびそのご家族など）に該当しない',
  ],
  eligibilityNo: '上記のいずれかに該当しない方は、本サービスをご利用いただけません。',

  regulations: 'Web口座開設規定に同意しますか？',
  regulationsLead: '下記の規定・説明書をご確認のうえ、内容に同意いただける場合は「同意する」を選択してください。',
  regulationsNo: messages.regulationsDisagreed,

  myNumber: 'マイナンバー（個人番号）を口座に紐づけますか？',
  myNumberLead: 'マイナンバーを口座に紐づける場合は、口座開設後に別途お届けのお手続きが必要です。',
  myNumberYes: 'マイナンバーを口座に紐づける（別途お手続き）',
  myNumberNo: '紐づけない',

  passbookTitle: '通帳の発行について',
  passbookBody: `本口座は通帳を発行しない口座です。口座開設後に通帳の発行をご希望の場合は、通帳発行手数料${PASSBOOK_FEE}が必要です。`,
  passbookCheck: '通帳が発行されないことを確認しました',

  sealTitle: '印鑑の登録について',
  sealBody:
    '本サービスでは、原則として印鑑（お届け印）の登録を行いません。お取引の際は、キャッシュカードと暗証番号などでご本人さまを確認いたします。印鑑の登録をご希望の方は、このあとの画面でお選びいただけます（登録のお手続きは別途郵送でご案内します）。',
  sealCheck: '原則として印鑑の登録を行わないことを確認しました',

  hint: 'すべての項目にお答えいただくと、次へ進めます。',
  branchReservation: '店舗・ATM検索（来店予約）',
} as const;
