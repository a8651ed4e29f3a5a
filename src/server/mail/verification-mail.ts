import type { BankConfig } from '../../domain/bank/types.js';
import { bankMail } from './bank-mail.js';
import type { MailMessage } from './types.js';

/** The mail that carries a verification code (POST /api/verification-codes/register). */
export function verificationMail(bank: BankConfig, to: string, code: string, validMinutes: number): MailMessage {
  const mail = bankMail(bank, {
    to,
    subject: '認証コードのお知らせ',
    body: [
      '',
      'お申込み画面に次の認証コードを入力してください。',
      '',
      `認証コード：${code}`,
      '',
      `認証コードの有効期限は、このメールの送信から${validMinutes}分間です。`,
      '有効期限を過ぎた場合は、お手数ですがお申込み画面から認証コードを再度お受け取りください。',
      '',
      'このメールにお心当たりのない場合は、どなたかがメールアドレスを誤って入力した可能性があります。',
      'お手数ですが、本メールを破棄してください。お手続きは進みません。',
    ],
  });
  return { ...mail, otp: { code, origin: `https://${bank.DOMAIN}` } };
}
