import type { ScreenProps } from '../runtime/screen';
import { LinkButton } from '../ui/Button';
import { formatJapanDateTime } from './term/formatJapanTime';
import '../styles/ekyc-steps.css';

/** What the completion actor handed over (POST /api/application-complete). */
export interface CompletionData {
  applicationNumber: string;
  applicationCompletedAt: string;
}

export function completionDataOf(data: Record<string, unknown> | undefined): CompletionData | null {
  const number = data?.applicationNumber;
  const at = data?.applicationCompletedAt;
  return typeof number === 'string' && typeof at === 'string' ? { applicationNumber: number, applicationCompletedAt: at } : null;
}

/** "2026年11月22日 10:15" in Japan time; the text as given when it is not a date. */
export function formatCompletedAt(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : formatJapanDateTime(date);
}

/** tel: URI of a phone number as printed (0120-177-310 → tel:0120177310). */
export function telHref(phoneNumber: string): string {
  return `tel:${phoneNumber.replace(/[^0-9+]/g, '')}`;
}

export const COMPLETE_WITHOUT_NUMBER =
  'お申込みは受け付けております。受付番号と受付日時は、ご登録のメールアドレスにお送りした「お申込み完了」のメールでご確認ください。';

/**
 * /complete and /child/complete: the application number and time, what happens next, the
 * bank's contact desk, the questionnaire and the bank's homepage. The flow's entry action has
 * already cleared session storage and the workplace/invitation cookies; the number arrives as
 * navigation state (it survives a reload of this page). Without it (opened anew), a gentle
 * text points to the completion mail.
 */
export default function Complete({ flow, settings, arrivalData }: ScreenProps) {
  const { bank } = settings;
  const contact = bank.CONTACT_INFORMATION;
  const completion = completionDataOf(arrivalData);
  const child = flow.config.meta.applicationType === 'CHILD';

  return (
    <section className="stack complete">
      <p className="complete__lead">{child ? 'お子さまの口座開設のお申込みを受け付けました。' : '口座開設のお申込みを受け付けました。'}</p>
      {completion ? (
        <dl className="receipt">
          <div className="receipt__row">
            <dt>受付番号</dt>
            <dd className="receipt__number">{completion.applicationNumber}</dd>
          </div>
          <div className="receipt__row">
            <dt>受付日時</dt>
            <dd>{formatCompletedAt(completion.applicationCompletedAt)}</dd>
          </div>
        </dl>
      ) : (
        <p className="alert">{COMPLETE_WITHOUT_NUMBER}</p>
      )}
      {completion && <p className="note">受付番号は、お問い合わせの際に必要です。お控えください。</p>}

      <section aria-labelledby="complete-next">
        <h2 className="section-title" id="complete-next">
          今後のお手続き
        </h2>
        <ul className="bullet-list">
          <li>ご登録のメールアドレスに、お申込み完了のメールをお送りしました。</li>
          <li>審査の結果は、郵送でお知らせします。審査の結果によっては、口座を開設できない場合があります。</li>
          <li>口座開設後、キャッシュカードを郵送でお届けします。お届けまで1～2週間程度かかります。</li>
          <li>キャッシュカードをお受け取りいただけなかった場合、お申込みは自動的に取り消しとなります。</li>
        </ul>
      </section>

      <section aria-labelledby="complete-contact" className="contact">
        <h2 className="section-title" id="complete-contact">
          お問い合わせ先
        </h2>
        <p className="contact__name">{contact.name}</p>
        <p className="contact__phone">
          <a href={telHref(contact.phoneNumber)} className="contact__tel">
            <span className="visually-hidden">電話番号 </span>
            {contact.phoneNumber}
          </a>
        </p>
        <p className="contact__hours">受付時間：{contact.receptionHours}</p>
      </section>

      <div className="actions">
        <LinkButton href={bank.links.questionnaire} target="_blank" rel="noopener noreferrer">
          アンケートに回答する
          <span className="visually-hidden">（新しいウィンドウで開きます）</span>
        </LinkButton>
        <LinkButton href={bank.links.homepage} variant="secondary">
          {bank.NAME}のホームページへ
        </LinkButton>
      </div>
    </section>
  );
}
