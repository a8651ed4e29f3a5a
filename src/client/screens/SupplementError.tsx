import { messages } from '../../domain/messages';
import type { ScreenProps } from '../runtime/screen';
import { Button } from '../ui/Button';

/** /supplement-error: the current-address document did not arrive; back to /supplement (RETRY). */
export default function SupplementError({ send }: ScreenProps) {
  return (
    <div className="error-page">
      <p className="error-page__text" role="alert">
        {messages.supplementUploadError}
      </p>
      <div className="actions">
        <Button onClick={() => send({ type: 'RETRY' })}>もう一度アップロードする</Button>
      </div>
    </div>
  );
}
