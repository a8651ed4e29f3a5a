import type { ScreenProps } from '../runtime/screen';
import { Button } from '../ui/Button';

/** An error page with its message and one button that sends RETRY (back to the step to try again). */
export function RetryErrorPage({ send, message, retryLabel }: Pick<ScreenProps, 'send'> & { message: string; retryLabel: string }) {
  return (
    <div className="error-page">
      <p className="error-page__text" role="alert">
        {message}
      </p>
      <div className="actions">
        <Button onClick={() => send({ type: 'RETRY' })}>{retryLabel}</Button>
      </div>
    </div>
  );
}
