import { ekycRefusalOf, type EkycRefusal } from '../../domain/ekyc';
import type { ApplicationType } from '../../domain/flow/types';
import { messages } from '../../domain/messages';
import type { ScreenProps } from '../runtime/screen';
import { RetryErrorPage } from './RetryErrorPage';

/** The mismatch's message and what to do about it: which items differ, whose entry they were. */
function mismatchTexts({ fields }: EkycRefusal, applicationType: ApplicationType): { message: string; notes: string[] } {
  const items = fields.map((field) => messages.ekycMismatchFields[field]).join('・');
  const cardMayHaveChanged = fields.includes('name') || fields.includes('address');
  return {
    message: messages.ekycMismatch(messages.ekycMismatchWhose[applicationType], items),
    notes: [...(cardMayHaveChanged ? [messages.ekycMismatchCardChanged] : []), messages.ekycMismatchEntry],
  };
}

/**
 * /ekyc-error and /child/ekyc-error: the identity check failed (the start was refused, the
 * provider rejected or failed, or no result came in time). 「本人確認をやり直す」 (RETRY)
 * returns to the preparation page of the flow (the parent's for a child application).
 * When the card's data differed from the entry (the poller hands the status answer's refusal
 * over as navigation data), the page names the items that differ and what to do instead of
 * the generic message.
 */
export default function EkycError({ send, flow, arrivalData }: ScreenProps) {
  const refusal = ekycRefusalOf(arrivalData);
  const texts = refusal ? mismatchTexts(refusal, flow.config.meta.applicationType) : { message: messages.ekycError, notes: [] };
  return <RetryErrorPage send={send} message={texts.message} notes={texts.notes} retryLabel="本人確認をやり直す" />;
}
