import { messages } from '../../domain/messages';
import type { ScreenProps } from '../runtime/screen';
import { RetryErrorPage } from './RetryErrorPage';

/** /supplement-error: the current-address document did not arrive; back to /supplement (RETRY). */
export default function SupplementError({ send }: ScreenProps) {
  return <RetryErrorPage send={send} message={messages.supplementUploadError} retryLabel="もう一度アップロードする" />;
}
