import { useState } from 'react';
import { messages } from '../../domain/messages';
import { api, messageOf, statusOf } from '../api/client';
import { Button } from '../ui/Button';

type Outcome = { kind: 'sent'; retentionDays: number } | { kind: 'failed'; message: string };

/**
 * 「あとで再開する」 on every step page (ADR 0030): what the applicant has stored so far is kept
 * already; this mails them how long it is kept and how to resume (POST
 * /api/applications/save-for-later), so they may close the page with that in hand.
 */
export function SaveForLater() {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const save = async () => {
    setBusy(true);
    try {
      const { retentionDays } = await api<{ retentionDays: number }>('/applications/save-for-later', { method: 'POST' });
      setOutcome({ kind: 'sent', retentionDays });
    } catch (error) {
      setOutcome({ kind: 'failed', message: statusOf(error) === 429 ? (messageOf(error) ?? messages.tooManyRequests) : messages.systemError });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="save-for-later stack">
      <Button variant="secondary" loading={busy} onClick={save}>
        あとで再開する
      </Button>
      {outcome?.kind === 'sent' && (
        <p className="alert" role="status">
          これまでにご入力いただいた内容（「次へ」で進んだページまで）は保存されています。お申込みを再開する方法を、ご登録のメールアドレスにお送りしました。保存期間は、最後にご入力いただいた日から
          {outcome.retentionDays}日間です。このまま画面を閉じていただいて差し支えありません。
        </p>
      )}
      {outcome?.kind === 'failed' && (
        <p className="alert" role="alert">
          {outcome.message}
        </p>
      )}
    </div>
  );
}
