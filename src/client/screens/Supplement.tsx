import { statusOf } from '../api/client';
import { UploadError } from '../platform/upload';
import type { ScreenProps } from '../runtime/screen';
import { PhotoCapture } from '../ui/PhotoCapture';
import '../styles/ekyc-steps.css';

/** Documents that prove the current address (issued within 6 months, name and address shown). */
export const ADDRESS_DOCUMENTS = [
  '公共料金（電気・ガス・水道・固定電話など）の領収書',
  '住民票の写し、または住民票の記載事項証明書',
  '国税・地方税の領収書、または納税証明書',
  '社会保険料の領収書',
] as const;

export const ADDRESS_CONFIRMATIONS = [
  '発行日（領収日）から6か月以内の書類です',
  'お名前と現在のご住所が写っています',
  '書類全体が写り、文字がはっきり読めます',
] as const;

/** Whether a failure was a 401 (the API client has already sent the applicant to the session error). */
function isSessionEnd(error: unknown): boolean {
  return (error instanceof UploadError && error.status === 401) || statusOf(error) === 401;
}

/**
 * /supplement (general flow): the identity check approved the applicant, and the bank asks
 * for a document proving the current address. The spec leaves the screen open; ours explains
 * which documents are accepted, takes a photo (PhotoCapture, type CURRENT_ADDRESS_DOCUMENT)
 * with three confirmations, and uploads it. Success → NEXT (the completion); a failed upload
 * or a photo that cannot be converted → FAIL (/supplement-error, whose button returns here).
 */
export default function Supplement({ send }: ScreenProps) {
  return (
    <section className="stack supplement">
      <p>
        本人確認書類のご住所と現在のご住所を確認するため、現住所が記載された書類（現住所確認書類）の写真を1点お送りください。
      </p>
      <PhotoCapture
        documentType="CURRENT_ADDRESS_DOCUMENT"
        captureLabel="現住所確認書類を撮影する"
        previewAlt="撮影した現住所確認書類"
        confirmations={ADDRESS_CONFIRMATIONS}
        onUploaded={() => send({ type: 'NEXT' })}
        onFailure={(error) => {
          if (!isSessionEnd(error)) send({ type: 'FAIL' });
        }}
      >
        <section aria-labelledby="address-documents">
          <h2 className="section-title" id="address-documents">
            ご利用いただける書類（いずれか1点）
          </h2>
          <ul className="bullet-list document-list">
            {ADDRESS_DOCUMENTS.map((name) => (
              <li key={name}>{name}</li>
            ))}
          </ul>
          <ul className="note-list">
            <li>発行日（領収日）から6か月以内のものに限ります。</li>
            <li>お客さまのお名前と現在のご住所が記載されているものをご用意ください。</li>
            <li>マイナンバー（個人番号）が記載されている場合は、その部分を隠して撮影してください。</li>
          </ul>
        </section>
        <section aria-labelledby="address-how">
          <h2 className="section-title" id="address-how">
            撮影のしかた
          </h2>
          <ul className="note-list">
            <li>書類全体が画面に収まるように撮影してください。</li>
            <li>文字がはっきり読めるよう、明るい場所で、光の反射やピンぼけがないように撮影してください。</li>
            <li>書類は平らな場所に置き、指などで文字を隠さないでください。</li>
          </ul>
        </section>
      </PhotoCapture>
    </section>
  );
}
