import type { ScreenProps } from '../runtime/screen';
import { Button } from '../ui/Button';

/**
 * An error page with its message, what the applicant can do about it (`notes`, if any), and one
 * button that sends RETRY (back to the step to try again).
 */
export function RetryErrorPage({ send, message, notes = [], retryLabel }: Pick<ScreenProps, 'send'> & { message: string; notes?: readonly string[]; retryLabel: string }) {
  return (
    <div className="error-page">
      <p className="error-page__text" role="alert">
        {message}
      </p>
      {notes.map((note) => (
        <p key={note} className="error-page__note">
          {note}
        </p>
      ))}
      <div className="actions">
        <Button onClick={() => send({ type: 'RETRY' })}>{retryLabel}</Button>
      </div>
    </div>
  );
}
