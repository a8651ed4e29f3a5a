import { messages } from '../../domain/messages';
import type { ScreenProps } from '../runtime/screen';
import { RetryErrorPage } from './RetryErrorPage';

/**
 * /ekyc-error and /child/ekyc-error: the identity check failed (the start was refused, the
 * provider rejected or failed, or no result came in time). 「本人確認をやり直す」 (RETRY)
 * returns to the preparation page of the flow (the parent's for a child application).
 */
export default function EkycError({ send }: ScreenProps) {
  return <RetryErrorPage send={send} message={messages.ekycError} retryLabel="本人確認をやり直す" />;
}
