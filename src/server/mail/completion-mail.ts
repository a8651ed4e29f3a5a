import { JAPAN_OFFSET_MS } from '../../domain/rules/dates.js';
import type { BankConfig } from '../../domain/bank/types.js';
import { bankMail } from './bank-mail.js';
import type { MailMessage } from './types.js';

/** '2025年6月15日 14時05分' in Japan time, as the mail states the acceptance. */
export function japaneseDateTime(date: Date): string {
  const jst = new Date(date.getTime() + JAPAN_OFFSET_MS);
  const minutes = String(jst.getUTCMinutes()).padStart(2, '0');
  return `${jst.getUTCFullYear()}年${jst.getUTCMonth() + 1}月${jst.getUTCDate()}日 ${jst.getUTCHours()}時${minutes}分`;
}

/** The mail sent when an application is complete (POST /api/application-complete). */
export function completionMail(bank: BankConfig, to: string, applicationNumber: string, completedAt: Date): MailMessage {
  return bankMail(bank, {
    to,
    subject: '口座開設のお申込みを受け付けました',
    body: [
      '以下の内容で口座開設のお申込みを受け付けました。',
      '',
      `お申込み番号：${applicationNumber}`,
      `受付日時：${japaneseDateTime(completedAt)}`,
      '',
      '■今後の流れ',
      '・当行所定の審査を行います。審査の結果は郵送でお知らせします。',
      '・審査の結果、口座を開設した場合は、キャッシュカードを郵送でお届けします。お届けまで1～2週間程度かかります。',
      '・キャッシュカードをお受け取りいただけない場合、お申込みは自動的に取り消しとなります。',
      '・審査の結果によっては、口座の開設をお断りする場合があります。あらかじめご了承ください。',
      '',
      'お問い合わせの際は、お申込み番号をお伝えください。',
    ],
    notes: ['※このメールにお心当たりのない場合は、お手数ですが下記までご連絡ください。'],
  });
}
