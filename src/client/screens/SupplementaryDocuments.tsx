import { useId, useState } from 'react';
import type { ScreenProps } from '../runtime/screen';
import { PhotoCapture } from '../ui/PhotoCapture';
import { BackButton } from './stepActions';
import { SUPPLEMENTARY_DOCUMENTS, useCaptureFailure, type SupplementaryType } from './child-documents/documents';
import '../styles/ekyc-steps.css';

/**
 * /child/ekyc-supplementary-documents (9 of 12): choose the residence certificate or the
 * maternity handbook, then take its photo (PhotoCapture with the three required checks of
 * spec section 5 for that document). Success → NEXT (the parent's identity check); a failed
 * upload or a photo that cannot be converted → the error page (/child/error).
 */
export default function SupplementaryDocuments({ send, flow }: ScreenProps) {
  const fail = useCaptureFailure(flow);
  const baseId = useId();
  const [selected, setSelected] = useState<SupplementaryType | null>(null);
  const document = SUPPLEMENTARY_DOCUMENTS.find((candidate) => candidate.type === selected);

  return (
    <section className="stack ekyc-capture">
      <p>お子さまのご住所・生年月日を確認するため、補完書類を1点撮影してください。</p>
      <fieldset className="question">
        <legend className="question__legend">
          <span className="question__text">撮影する書類を選択してください</span>
        </legend>
        <div className="choices choices--column">
          {SUPPLEMENTARY_DOCUMENTS.map((candidate) => {
            const inputId = `${baseId}-${candidate.type}`;
            return (
              <div className="choice" key={candidate.type}>
                <input
                  type="radio"
                  id={inputId}
                  name={`${baseId}-document`}
                  value={candidate.type}
                  checked={selected === candidate.type}
                  onChange={() => setSelected(candidate.type)}
                  aria-describedby={`${inputId}-description`}
                  className="choice__input"
                />
                <label htmlFor={inputId} className="choice__label">
                  {candidate.name}
                </label>
                <span id={`${inputId}-description`} hidden>
                  {candidate.description}
                </span>
              </div>
            );
          })}
        </div>
        <ul className="note-list">
          {SUPPLEMENTARY_DOCUMENTS.map((candidate) => (
            <li key={candidate.type}>
              {candidate.name}：{candidate.description}
            </li>
          ))}
        </ul>
      </fieldset>

      {document && (
        <PhotoCapture
          // A new choice starts over: no photo, no checks.
          key={document.type}
          documentType={document.type}
          captureLabel={document.captureLabel}
          previewAlt={document.previewAlt}
          confirmations={document.confirmations}
          onUploaded={() => send({ type: 'NEXT' })}
          onFailure={fail}
        >
          <section aria-labelledby={`${baseId}-how`}>
            <h2 className="section-title" id={`${baseId}-how`}>
              {document.name}の撮影のしかた
            </h2>
            <ul className="note-list">
              {document.instructions.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          </section>
        </PhotoCapture>
      )}

      <div className="actions">
        <BackButton send={send} />
      </div>
    </section>
  );
}
