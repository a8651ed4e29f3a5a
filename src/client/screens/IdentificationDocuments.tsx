import type { ScreenProps } from '../runtime/screen';
import { PhotoCapture } from '../ui/PhotoCapture';
import { BackButton } from './stepActions';
import { useCaptureFailure } from './child-documents/documents';
import '../styles/ekyc-steps.css';

/**
 * /child/ekyc-identification-documents (7 of 12): a photo of the child's individual number
 * card (PhotoCapture, type INDIVIDUAL_NUMBER_CARD). Success → NEXT (the supplementary
 * document); a failed upload or a photo that cannot be converted → the error page (/child/error).
 */
export default function IdentificationDocuments({ send, flow }: ScreenProps) {
  const fail = useCaptureFailure(flow);
  return (
    <section className="stack ekyc-capture">
      <p>お子さまのマイナンバーカード（個人番号カード）の表面を撮影してください。</p>
      <PhotoCapture
        documentType="INDIVIDUAL_NUMBER_CARD"
        captureLabel="マイナンバーカードを撮影する"
        previewAlt="撮影したお子さまのマイナンバーカード"
        onUploaded={() => send({ type: 'NEXT' })}
        onFailure={fail}
      >
        <section aria-labelledby="card-how">
          <h2 className="section-title" id="card-how">
            撮影のしかた
          </h2>
          <ul className="note-list">
            <li>カードはケース（カバー）から取り出して撮影してください。</li>
            <li>白以外の、無地で暗い色の背景の上にカードを置いて撮影してください。</li>
            <li>カードの四隅がすべて画面に収まるように撮影してください。</li>
            <li>文字や顔写真がはっきり読めるよう、明るい場所で、光の反射やピンぼけがないように撮影してください。</li>
          </ul>
        </section>
      </PhotoCapture>
      <div className="actions">
        <BackButton send={send} />
      </div>
    </section>
  );
}
