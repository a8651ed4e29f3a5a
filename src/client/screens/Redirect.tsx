import type { ScreenProps } from '../runtime/screen';
import '../styles/ekyc-steps.css';

/**
 * /redirect and /child/redirect: the flow's completeApplication actor gives the application
 * its number; the runtime then opens the completion page with it. Only a wait is shown here.
 */
export default function Redirect(_props: ScreenProps) {
  return (
    <section className="stack">
      <div className="waiting" role="status">
        <span className="waiting__spinner" aria-hidden="true" />
        <p className="waiting__title">ただいま処理しています</p>
        <p>画面が切り替わるまで、このページを閉じずにお待ちください。</p>
      </div>
    </section>
  );
}
