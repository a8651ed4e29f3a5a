import type { AnyMachineSnapshot } from 'xstate';
import type { ScreenProps } from '../runtime/screen';
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

function GeneralPreparation() {
  return (
    <>
      <p>
        お客さまご本人であることを確認するため、本人確認サービス（eKYC）で、本人確認書類とお客さまのお顔を撮影していただきます。
      </p>
      <section aria-labelledby="ekyc-documents">
        <h2 className="section-title" id="ekyc-documents">
          ご用意いただく本人確認書類（いずれか1点）
        </h2>
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
        <h2 className="section-title" id="ekyc-steps">
          これからの流れ
        </h2>
        <ol className="flow-steps">
          <li>「本人確認へ進む」を押すと、本人確認サービスの画面に移動します。</li>
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

function ParentPreparation() {
  return (
    <>
      <p>最後に、お申込みいただく親権者さまご本人の本人確認を、本人確認サービス（eKYC）で行います。</p>
      <section aria-labelledby="ekyc-documents">
        <h2 className="section-title" id="ekyc-documents">
          ご用意いただくもの
        </h2>
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
        <h2 className="section-title" id="ekyc-steps">
          これからの流れ
        </h2>
        <ol className="flow-steps">
          <li>「本人確認へ進む」を押すと、本人確認サービスの画面に移動します。</li>
          <li>画面の案内に沿って、マイナンバーカードと親権者さまのお顔を撮影してください。</li>
          <li>撮影が終わると、この申込画面に戻り、確認結果をお待ちいただきます（1分程度）。</li>
          <li>本人確認が完了すると、お申込みの受付が完了します。</li>
        </ol>
      </section>
    </>
  );
}

/**
 * /ekyc-preparation (7 of 7) and /child/parent-ekyc-preparation (12 of 12): what to have ready
 * for the identity check, then 「本人確認へ進む」 (START_EKYC). While the flow's startEkyc
 * actor asks for the provider's URL (sub-state `starting`) and while the browser leaves for
 * it (`leaving`), the button shows a spinner and cannot be pressed again. A failed start
 * sends the flow to the eKYC error page.
 */
export default function EkycPreparation({ page, flow, snapshot, send }: ScreenProps) {
  const parent = flow.config.meta.applicationType === 'CHILD';
  const starting = inSubState(snapshot, page.stateId, 'starting', 'leaving');
  return (
    <section className="stack ekyc-preparation">
      {parent ? <ParentPreparation /> : <GeneralPreparation />}
      <div className="actions">
        <Button loading={starting} onClick={() => send({ type: 'START_EKYC' })}>
          本人確認へ進む
        </Button>
        {starting && (
          <p className="actions__hint" role="status">
            本人確認サービスへ移動しています。しばらくお待ちください。
          </p>
        )}
      </div>
    </section>
  );
}
