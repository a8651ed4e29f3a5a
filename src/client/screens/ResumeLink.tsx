import { Link } from 'react-router-dom';
import { retentionDaysOf } from '../../domain/bank/types';
import { useResumeNavigation } from '../runtime/resume';
import type { ScreenProps } from '../runtime/screen';

/**
 * 「申込みを再開する」 on the landing pages and the session error page (ADR 0030): to the e-mail
 * verification in its resume mode, for an applicant who left an application unfinished.
 */
export function ResumeLink({ flow, page, settings }: Pick<ScreenProps, 'flow' | 'page' | 'settings'>) {
  const { verificationPath, state, remember } = useResumeNavigation(flow, page, settings);
  if (!verificationPath) return null;
  return (
    <section className="resume-link stack" aria-label="お申込みの再開">
      <p>
        お申込みを途中で中断された方は、ご登録のメールアドレスで認証すると、前回の続きからお手続きいただけます（最後にご入力いただいた日から
        {retentionDaysOf(settings.bank)}日間）。
      </p>
      <Link className="button button--secondary" to={verificationPath} state={state} onClick={remember}>
        申込みを再開する
      </Link>
    </section>
  );
}
