import { useState } from 'react';
import { Button } from '../../ui/Button';

export interface ProceedActionsProps {
  /** Everything asked is answered: 次へ is enabled. */
  ready: boolean;
  /** Shown under the buttons while not ready (null: nothing, e.g. when a message blocks). */
  hint: string | null;
  onNext: () => void;
  /** Present only where the flow has a way back. */
  onBack?: () => void;
}

/**
 * The foot of the landing checklists (/term, /child/before-check, /child/term): 次へ once
 * everything is answered, pressed once (it then shows that it is working), 戻る where the flow
 * has one, and the hint while something is still unanswered.
 */
export function ProceedActions({ ready, hint, onNext, onBack }: ProceedActionsProps) {
  const [sent, setSent] = useState(false);
  return (
    <div className="actions">
      <Button
        variant="primary"
        disabled={!ready}
        loading={sent}
        onClick={() => {
          setSent(true);
          onNext();
        }}
      >
        次へ
      </Button>
      {onBack && (
        <Button variant="secondary" onClick={onBack}>
          戻る
        </Button>
      )}
      {!ready && hint && <p className="actions__hint">{hint}</p>}
    </div>
  );
}
