/** A plain-text mail from a bank to an applicant. */
export interface MailMessage {
  from: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  /**
   * One-time passcode carried in the OTP-Token header (draft-goto-otp-token, nodemailer's `otp`
   * option) so mail apps can offer to fill it in on the bank's origin. The code is in the text
   * as well; clients that do not know the header lose nothing.
   */
  otp?: { code: string; origin: string };
}

/** A mail kept by the outbox (also the .json sidecar of each .eml file). */
export interface OutboxEntry {
  id: string;
  from: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

export interface MailSender {
  /** Sends a mail; `id` names it (its queue row's id), the same on every try. */
  send(message: MailMessage, id: string): Promise<void>;
  /** Outbox senders list what they kept (newest first); SMTP senders have nothing to list. */
  list?(): Promise<OutboxEntry[]>;
  close?(): Promise<void>;
}
