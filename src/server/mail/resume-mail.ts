import type { BankConfig } from '../../domain/bank/types.js';
import { bankMail } from './bank-mail.js';
import type { MailMessage } from './types.js';

/**
 * The mail that says an application is kept and how to come back to it (ADR 0030): sent when
 * its first step is saved and when the applicant chooses 「あとで再開する」. It holds no personal
 * data and no link that signs in: the applicant resumes with a fresh code, as on the first visit.
 */
export function resumeMail(bank: BankConfig, to: string, retentionDays: number, landingPath: string): MailMessage {
  return bankMail(bank, {
    to,
    subject: 'お申込み内容を保存しています',
    body: [
      'お申込みの途中までの内容を保存しています。',
      '',
      '■保存期間',
      `お申込み内容は、最後にご入力いただいた日から${retentionDays}日間保存します。`,
      '保存期間を過ぎたお申込みは、入力いただいた内容とともに削除します。',
      '',
      '■お申込みを再開する方法',
      `1. 口座開設Webお申込みのページ（https://${bank.DOMAIN}${landingPath}）を開き、「申込みを再開する」を選んでください。`,
      '2. このメールを受け取ったメールアドレスを入力してください。',
      '3. メールでお届けする認証コードを入力すると、前回の続きからお手続きいただけます。',
      '',
      'お申込みは、最後の本人確認まで終えた時点で受付となります。',
    ],
    notes: [
      '※このメールにお心当たりのない場合は、どなたかがメールアドレスを誤って入力した可能性があります。お手数ですが、本メールを破棄してください。',
    ],
  });
}
