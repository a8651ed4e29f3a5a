import type { AnyMachineSnapshot } from 'xstate';
import type { VerificationMethod } from '../../domain/identity-check-methods';
import { canSend, type ScreenProps } from '../runtime/screen';
import { Button } from '../ui/Button';
import '../styles/ekyc-steps.css';

/** Whether the page's machine is in one of its sub-states (e.g. ekycPreparation.starting). */
export function inSubState(snapshot: AnyMachineSnapshot, stateId: string, ...subStates: string[]): boolean {
  if (typeof snapshot.matches !== 'function') return false;
  return subStates.some((sub) => snapshot.matches({ [stateId]: sub }));
}

/** The documents the identity check service accepts (as the pre-application check names them). */
export const GENERAL_DOCUMENTS = [
  '運転免許証',
  'マイナンバーカード（個人番号カード）',
  '運転経歴証明書',
  '住民基本台帳カード（顔写真付きのもの）',
] as const;

/** The heading level of a method's own sections: under the method's heading (h2) when the page offers two. */
type SectionHeading = 'h2' | 'h3';

function GeneralPreparation({ Heading }: { Heading: SectionHeading }) {
  return (
    <>
      <p>
        お客さまご本人であることを確認するため、本人確認サービス（eKYC）で、本人確認書類とお客さまのお顔を撮影していただきます。
      </p>
      <section aria-labelledby="ekyc-documents">
        <Heading className="section-title" id="ekyc-documents">
          ご用意いただく本人確認書類（いずれか1点）
        </Heading>
        <ul className="bullet-list document-list">
          {GENERAL_DOCUMENTS.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
        <ul className="note-list">
          <li>有効期限内で、現在お住まいのご住所が記載されているものをご用意ください。</li>
          <li>マイナンバー通知カードはご利用いただけません。</li>
          <li>書類はケースなどから取り出して撮影してください。</li>
        </ul>
      </section>
      <section aria-labelledby="ekyc-steps">
        <Heading className="section-title" id="ekyc-steps">
          これからの流れ
        </Heading>
        <ol className="flow-steps">
          <li>「書類の撮影で本人確認へ進む」を押すと、本人確認サービスの画面に移動します。</li>
          <li>画面の案内に沿って、本人確認書類とお客さまのお顔を撮影してください。</li>
          <li>撮影が終わると、この申込画面に戻り、確認結果をお待ちいただきます（1分程度）。</li>
          <li>
            本人確認が完了すると、お申込みの受付が完了します。ご住所の確認のため、現住所確認書類の提出をお願いする場合があります。
          </li>
        </ol>
      </section>
      <ul className="note-list">
        <li>明るい場所で、カメラの利用を許可して撮影してください。</li>
        <li>撮影が終わるまで、ブラウザを閉じずにお待ちください。</li>
      </ul>
    </>
  );
}

function ParentPreparation({ Heading }: { Heading: SectionHeading }) {
  return (
    <>
      <p>最後に、お申込みいただく親権者さまご本人の本人確認を、本人確認サービス（eKYC）で行います。</p>
      <section aria-labelledby="ekyc-documents">
        <Heading className="section-title" id="ekyc-documents">
          ご用意いただくもの
        </Heading>
        <ul className="bullet-list document-list">
          <li>親権者さまのマイナンバーカード（個人番号カード）</li>
          <li>親権者さまのお顔の撮影（本人確認サービスの画面で撮影します）</li>
        </ul>
        <ul className="note-list">
          <li>マイナンバーカードは、ケースから取り出して撮影してください。</li>
          <li>カードの文字や顔写真がはっきり写るよう、明るい場所で撮影してください。</li>
        </ul>
        <p className="alert alert--warning">
          撮影した書類が不鮮明な場合や、記載内容を確認できない場合は、あらためてお申込みいただくことがあります。
        </p>
      </section>
      <section aria-labelledby="ekyc-steps">
        <Heading className="section-title" id="ekyc-steps">
          これからの流れ
        </Heading>
        <ol className="flow-steps">
          <li>「書類の撮影で本人確認へ進む」を押すと、本人確認サービスの画面に移動します。</li>
          <li>画面の案内に沿って、マイナンバーカードと親権者さまのお顔を撮影してください。</li>
          <li>撮影が終わると、この申込画面に戻り、確認結果をお待ちいただきます（1分程度）。</li>
          <li>本人確認が完了すると、お申込みの受付が完了します。</li>
        </ol>
      </section>
    </>
  );
}

/** The applicant's JPKI check through the Digital Agency's app (both flows; ADR 0035). */
function JpkiPreparation({ parent, Heading }: { parent: boolean; Heading: SectionHeading }) {
  const who = parent ? '親権者さま' : 'お客さま';
  return (
    <>
      <p>
        {who}のマイナンバーカードのICチップをスマートフォンで読み取り、署名用電子証明書で本人確認を行います。書類やお顔の撮影は不要です。
      </p>
      <section aria-labelledby="jpki-items">
        <Heading className="section-title" id="jpki-items">
          ご用意いただくもの
        </Heading>
        <ul className="bullet-list document-list">
          <li>{who}のマイナンバーカード（署名用電子証明書が有効なもの）</li>
          <li>署名用電子証明書の暗証番号（英数字6～16桁）</li>
          <li>マイナンバーカードの読み取りに対応したスマートフォンと、デジタル庁の「デジタル認証アプリ」</li>
        </ul>
        <ul className="note-list">
          <li>氏名・生年月日・住所は、マイナンバーカードに記録されている内容とお申込み内容を照合します。転居後に住所の変更がお済みでない場合はご利用いただけません。</li>
          <li>暗証番号を5回続けて間違えると、署名用電子証明書がロックされます。ロックの解除は、お住まいの市区町村の窓口でお手続きください。</li>
        </ul>
      </section>
    </>
  );
}

/** What each way of checking says, and its button, by the event that starts it. */
const methodSections = {
  START_EKYC: {
    startingState: 'starting',
    heading: '本人確認書類とお顔を撮影する',
    button: '書類の撮影で本人確認へ進む',
    body: (parent: boolean, Heading: SectionHeading) => (parent ? <ParentPreparation Heading={Heading} /> : <GeneralPreparation Heading={Heading} />),
  },
  START_JPKI: {
    startingState: 'startingJpki',
    heading: 'マイナンバーカードを読み取る',
    button: 'マイナンバーカードで本人確認へ進む',
    body: (parent: boolean, Heading: SectionHeading) => <JpkiPreparation parent={parent} Heading={Heading} />,
  },
} as const;
type MethodEvent = keyof typeof methodSections;

/** The start events in the bank's order of its methods (settings.identityCheckMethods). */
const eventOfMethod: Partial<Record<VerificationMethod, MethodEvent>> = {
  IMAGE_SELFIE_PHOTO_ID: 'START_EKYC',
  JPKI_SIGNATURE: 'START_JPKI',
};

/**
 * /ekyc-preparation (7 of 7) and /child/parent-ekyc-preparation (12 of 12): the ways of checking
 * the applicant (or parent) the flow allows today (its guards photoIdOffered and jpkiOffered,
 * from the bank's methods of the day), each with what to have ready and its own button
 * (START_EKYC, START_JPKI), in the bank's order; with two, the page asks to choose. While the
 * flow's startEkyc actor asks for the provider's URL and the browser leaves for it, every
 * button waits and cannot be pressed again. A failed start sends the flow to the eKYC error page.
 */
export default function EkycPreparation({ page, flow, settings, snapshot, send }: ScreenProps) {
  const parent = flow.config.meta.applicationType === 'CHILD';
  const leaving = inSubState(snapshot, page.stateId, 'leaving');
  const events = settings.identityCheckMethods
    .map((method) => eventOfMethod[method])
    .filter((event): event is MethodEvent => event !== undefined && canSend(snapshot, event));
  const startingWith = (event: MethodEvent) => leaving || inSubState(snapshot, page.stateId, methodSections[event].startingState);
  const starting = events.some(startingWith);
  // With two ways, each is a card under its own heading, its sections one level below.
  const choice = events.length > 1;
  return (
    <section className="stack ekyc-preparation">
      {choice && <p>本人確認は、次の{events.length}つの方法からお選びいただけます。</p>}
      {events.length === 0 && (
        <p className="alert alert--warning" role="status">
          現在、Webでの本人確認を受け付けておりません。お手数ですが、お近くの店舗にご相談ください。
        </p>
      )}
      {events.map((event) => (
        <section
          key={event}
          className={choice ? 'stack ekyc-method ekyc-method--choice' : 'stack ekyc-method'}
          aria-labelledby={choice ? `method-${event}` : undefined}
        >
          {choice && (
            <h2 className="section-title ekyc-method__title" id={`method-${event}`}>
              {methodSections[event].heading}
            </h2>
          )}
          {methodSections[event].body(parent, choice ? 'h3' : 'h2')}
          <div className="actions">
            <Button loading={startingWith(event)} disabled={starting} onClick={() => send({ type: event })}>
              {methodSections[event].button}
            </Button>
          </div>
        </section>
      ))}
      {starting && (
        <p className="actions__hint" role="status">
          本人確認サービスへ移動しています。しばらくお待ちください。
        </p>
      )}
    </section>
  );
}
