import { useState } from 'react';
import type { FlowModel } from '../../domain/flow/model';
import { POLL_PROGRESS, type PollInput, type PollProgress, type PollProgressEvent } from '../runtime/implementations';
import type { ScreenProps } from '../runtime/screen';
import { useEmitted } from '../runtime/useEmitted';
import '../styles/ekyc-steps.css';

/** Spec section 9: every 5 seconds, at most 12 tries. */
const DEFAULT_MAX_TRIES = 12;

/** The poller's input as the flow file gives it for this page's state. */
export function pollInputOf(flow: FlowModel, stateId: string): Partial<PollInput> {
  const invoke: unknown = flow.config.states[stateId]?.invoke;
  const input: unknown = invoke && typeof invoke === 'object' && 'input' in invoke ? invoke.input : undefined;
  if (!input || typeof input !== 'object') return {};
  const { intervalMs, maxTries } = input as Record<string, unknown>;
  return {
    ...(typeof intervalMs === 'number' ? { intervalMs } : {}),
    ...(typeof maxTries === 'number' ? { maxTries } : {}),
  };
}

/**
 * /ekyc-callback (7 of 7) and /child/ekyc-callback (12 of 12): the provider sent the
 * applicant back; the flow's pollEkycStatus actor asks for the result and moves on (to the
 * completion, the current-address document, or the eKYC error page). This screen only shows
 * that something is happening: a progress bar fed by the tries the poller emits, and a request not to
 * close the page.
 */
export default function EkycCallback({ flow, page, snapshot }: ScreenProps) {
  const [progress, setProgress] = useState<PollProgress>(() => ({
    tries: 0,
    maxTries: pollInputOf(flow, page.stateId).maxTries ?? DEFAULT_MAX_TRIES,
  }));

  // The poller is this page's invoked actor; it emits its tries (implementations.ts).
  useEmitted<PollProgressEvent>(snapshot, POLL_PROGRESS, ({ tries, maxTries }) => setProgress({ tries, maxTries }));

  const percent = Math.min(100, Math.round((progress.tries / Math.max(1, progress.maxTries)) * 100));
  const text = `確認中です（${progress.tries}/${progress.maxTries}）`;

  return (
    <section className="stack ekyc-callback">
      <div className="waiting">
        <span className="waiting__spinner" aria-hidden="true" />
        <p className="waiting__title">本人確認書類を確認しています</p>
      </div>
      <div className="poll-progress">
        <div
          className="poll-progress__track"
          role="progressbar"
          aria-label="本人確認の確認状況"
          aria-valuemin={0}
          aria-valuemax={progress.maxTries}
          aria-valuenow={progress.tries}
          aria-valuetext={text}
        >
          <span className="poll-progress__fill" style={{ width: `${percent}%` }} />
        </div>
        <p className="poll-progress__text" aria-live="polite">
          {text}
        </p>
      </div>
      <p className="alert">
        確認には1分程度かかります。画面が切り替わるまで、このページを閉じたり、ブラウザの「戻る」を押したりせずにお待ちください。
      </p>
    </section>
  );
}
