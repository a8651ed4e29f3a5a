import { useSearchParams } from 'react-router-dom';
import { messages } from '../../domain/messages';
import type { ScreenProps } from '../runtime/screen';
import { Button } from '../ui/Button';
import { ResumeLink } from './ResumeLink';

export const SYSTEM_ERROR_TEXT = `申し訳ございません。${messages.systemError}`;

/**
 * /error and /child/error. With ?id=1 (a 401 ended the session) the session-timeout text,
 * otherwise the system error. "再申込みへ" returns to the flow's landing page; after a session
 * ended, 「申込みを再開する」 continues the application where it stopped (ADR 0030).
 */
export default function SystemError({ send, flow, page, settings }: ScreenProps) {
  const [params] = useSearchParams();
  const sessionTimedOut = params.get('id') === '1';
  return (
    <div className="error-page">
      <p className="error-page__text">{sessionTimedOut ? messages.unauthorized : SYSTEM_ERROR_TEXT}</p>
      {sessionTimedOut && <ResumeLink flow={flow} page={page} settings={settings} />}
      <div className="actions">
        <Button variant="primary" onClick={() => send({ type: 'RESTART' })}>
          再申込みへ
        </Button>
      </div>
    </div>
  );
}
