import type { BankConfig } from '../../domain/bank/types.js';
import type { MailMessage } from './types.js';

export interface BankMailContent {
  to: string;
  /** After 【bank name】. */
  subject: string;
  /** The lines between the greeting and the no-reply note. */
  body: string[];
  /** Further notes after the no-reply note. */
  notes?: string[];
}

/**
 * A mail from the bank to the applicant: sent from the bank's address under its name, opened
 * with the greeting and closed with the no-reply note and the bank's contact footer.
 */
export function bankMail(bank: BankConfig, { to, subject, body, notes = [] }: BankMailContent): MailMessage {
  const contact = bank.CONTACT_INFORMATION;
  const text = [
    `${bank.NAME}の口座開設Webお申込みをご利用いただき、ありがとうございます。`,
    ...body,
    '',
    '※本メールは送信専用のアドレスからお送りしています。ご返信いただいてもお答えできません。',
    ...notes,
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
    subject: `【${bank.NAME}】${subject}`,
    text,
  };
}
