import type { BankConfig } from '../../domain/bank/types.js';
import type { MailMessage } from './types.js';

/** The mail that carries a verification code (POST /api/verification-codes/register). */
export function verificationMail(bank: BankConfig, to: string, code: string, validMinutes: number): MailMessage {
  const contact = bank.CONTACT_INFORMATION;
  const text = [
    `${bank.NAME}の口座開設Webお申込みをご利用いただき、ありがとうございます。`,
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
    '',
    '※本メールは送信専用のアドレスからお送りしています。ご返信いただいてもお答えできません。',
    '',
    '――――――――――――――――――――',
    bank.legalName,
    `${contact.name}`,
    `電話番号：${contact.phoneNumber}（受付時間：${contact.receptionHours}）`,
    '――――――――――――――――――――',
    '',
  ].join('\n');
  return {
    from: { name: bank.NAME, address: bank.MAIL_ADDRESS },
    to,
    subject: `【${bank.NAME}】認証コードのお知らせ`,
    text,
    otp: { code, origin: `https://${bank.DOMAIN}` },
  };
}
