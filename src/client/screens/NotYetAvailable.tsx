import type { ScreenProps } from '../runtime/screen';

/** Shown for a screen of the flow whose implementation has not landed yet. */
export default function NotYetAvailable({ page, send, flow }: ScreenProps) {
  const hasBack = Boolean(flow.edges.find((edge) => edge.from === page.path && edge.event === 'BACK'));
  return (
    <section className="notice" aria-live="polite">
      <p>この画面は現在準備中です。恐れ入りますが、しばらくお待ちください。</p>
      {hasBack && (
        <button type="button" className="button button--secondary" onClick={() => send({ type: 'BACK' })}>
          戻る
        </button>
      )}
    </section>
  );
}
