import { useEffect, useId, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import type { DocumentType } from '../../domain/ekyc';
import { prepareDocumentImage } from '../platform/imagePipeline';
import { uploadDocument, type UploadedDocument } from '../platform/upload';
import { Button } from './Button';
import '../styles/photo-capture.css';

export interface PhotoCaptureProps {
  /** The `type` sent with POST /api/documents. */
  documentType: DocumentType;
  /** Text of the big camera button, e.g. 「現住所確認書類を撮影する」. */
  captureLabel: string;
  /** Alternative text of the preview, e.g. 「撮影した現住所確認書類」. */
  previewAlt: string;
  /** How to take the photo (shown above the camera button and the preview). */
  children?: ReactNode;
  /** Statements the applicant must tick on the preview before uploading (all required). */
  confirmations?: readonly string[];
  /** Text of the upload button. */
  uploadLabel?: string;
  /** The upload succeeded. */
  onUploaded: (result: UploadedDocument) => void;
  /**
   * The photo could not be converted (ImageConversionError) or the upload failed
   * (UploadError). A 401 has already been sent to the session-error page.
   */
  onFailure: (error: unknown) => void;
}

type Phase = { kind: 'empty' } | { kind: 'preview' } | { kind: 'preparing' } | { kind: 'uploading'; percent: number };

/**
 * Takes a photo of a document and uploads it: instructions, a big camera button (a file
 * input with `capture="environment"`, which opens the rear camera on phones and the file
 * picker elsewhere), a preview to check the photo, optional confirmations to tick, then
 * 「この写真でアップロード」 with a progress bar, or 「撮り直す」.
 *
 * Large photos are converted first (platform/imagePipeline.ts); the upload goes through
 * platform/upload.ts. The preview's object URL is revoked when the photo changes and when the
 * component goes away; an upload still running then is aborted.
 */
export function PhotoCapture({
  documentType,
  captureLabel,
  previewAlt,
  children,
  confirmations = [],
  uploadLabel = 'この写真でアップロード',
  onUploaded,
  onFailure,
}: PhotoCaptureProps) {
  const inputId = useId();
  const baseId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const previewHeadingRef = useRef<HTMLHeadingElement>(null);
  const abortRef = useRef<AbortController | null>(null);
  const busyRef = useRef(false);
  const [file, setFile] = useState<File | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [previewBroken, setPreviewBroken] = useState(false);
  const [checked, setChecked] = useState<boolean[]>(() => confirmations.map(() => false));
  const [phase, setPhase] = useState<Phase>({ kind: 'empty' });

  // One object URL per chosen photo, revoked on change and on unmount.
  useEffect(() => {
    setPreviewBroken(false);
    if (!file || typeof URL.createObjectURL !== 'function') {
      setPreviewUrl(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreviewUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  useEffect(() => () => abortRef.current?.abort(), []);

  useEffect(() => {
    if (phase.kind === 'preview') previewHeadingRef.current?.focus();
  }, [phase.kind]);

  const busy = phase.kind === 'preparing' || phase.kind === 'uploading';
  const allChecked = checked.every(Boolean);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0] ?? null;
    if (!chosen) return;
    setFile(chosen);
    setChecked(confirmations.map(() => false));
    setPhase({ kind: 'preview' });
  };

  const retake = () => {
    setFile(null);
    setChecked(confirmations.map(() => false));
    setPhase({ kind: 'empty' });
    const input = inputRef.current;
    if (input) {
      // The same photo chosen again must fire a change.
      input.value = '';
      input.click();
    }
  };

  const upload = async () => {
    if (!file || busyRef.current || !allChecked) return;
    busyRef.current = true;
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      setPhase({ kind: 'preparing' });
      const image = await prepareDocumentImage(file);
      if (controller.signal.aborted) return;
      setPhase({ kind: 'uploading', percent: 0 });
      const result = await uploadDocument({
        type: documentType,
        image,
        signal: controller.signal,
        onProgress: (fraction) => setPhase({ kind: 'uploading', percent: Math.round(fraction * 100) }),
      });
      onUploaded(result);
    } catch (error) {
      if (controller.signal.aborted) return;
      busyRef.current = false;
      setPhase({ kind: 'preview' });
      onFailure(error);
    }
  };

  const progressLabelId = `${baseId}__progress`;

  return (
    <div className="photo-capture">
      {children && <div className="photo-capture__instructions">{children}</div>}

      <div className="photo-capture__camera" hidden={phase.kind !== 'empty'}>
        <input
          ref={inputRef}
          id={inputId}
          className="photo-capture__input"
          type="file"
          accept="image/*"
          capture="environment"
          onChange={choose}
        />
        <label htmlFor={inputId} className="camera-button">
          <svg className="camera-button__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M9 3 7.2 5H4a2 2 0 0 0-2 2v11a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-3.2L15 3H9Zm3 5a5 5 0 1 1 0 10 5 5 0 0 1 0-10Zm0 2a3 3 0 1 0 0 6 3 3 0 0 0 0-6Z" />
          </svg>
          <span className="camera-button__text">{captureLabel}</span>
        </label>
        <p className="note photo-capture__camera-note">カメラが起動します。カメラを利用できない場合は、撮影済みの写真を選択できます。</p>
      </div>

      {phase.kind !== 'empty' && file && (
        <section className="photo-capture__preview" aria-labelledby={`${baseId}__preview-title`}>
          <h2 className="section-title" id={`${baseId}__preview-title`} ref={previewHeadingRef} tabIndex={-1}>
            撮影した写真の確認
          </h2>
          <p>書類全体が写っていること、文字がはっきり読めることをご確認ください。</p>
          <div className="photo-capture__frame">
            {previewUrl && !previewBroken ? (
              <img className="photo-capture__image" src={previewUrl} alt={previewAlt} onError={() => setPreviewBroken(true)} />
            ) : (
              <p className="photo-capture__no-preview">この写真はプレビューを表示できません。</p>
            )}
          </div>

          {confirmations.length > 0 && (
            <fieldset className="photo-capture__checks" disabled={busy}>
              <legend className="field__label">確認事項（すべてにチェックしてください）</legend>
              {confirmations.map((text, index) => {
                const id = `${baseId}__check-${index}`;
                return (
                  <div className="checkbox" key={text}>
                    <input
                      id={id}
                      type="checkbox"
                      className="checkbox__input"
                      checked={checked[index] === true}
                      aria-required="true"
                      onChange={(event) => {
                        const value = event.target.checked;
                        setChecked((current) => current.map((was, i) => (i === index ? value : was)));
                      }}
                    />
                    <label htmlFor={id} className="checkbox__label">
                      {text}
                    </label>
                  </div>
                );
              })}
            </fieldset>
          )}

          {busy && (
            <div className="upload-progress">
              <p className="upload-progress__text" id={progressLabelId} role="status">
                {phase.kind === 'preparing' ? '写真を送信用に調整しています…' : `アップロード中です（${phase.percent}%）`}
              </p>
              <div
                className="upload-progress__track"
                role="progressbar"
                aria-labelledby={progressLabelId}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={phase.kind === 'uploading' ? phase.percent : undefined}
              >
                <span
                  className={`upload-progress__fill${phase.kind === 'preparing' ? ' upload-progress__fill--indeterminate' : ''}`}
                  style={phase.kind === 'uploading' ? { width: `${phase.percent}%` } : undefined}
                />
              </div>
            </div>
          )}

          <div className="actions">
            <Button loading={busy} disabled={!allChecked} onClick={() => void upload()}>
              {uploadLabel}
            </Button>
            <Button variant="secondary" disabled={busy} onClick={retake}>
              撮り直す
            </Button>
            {!allChecked && <p className="actions__hint">確認事項にすべてチェックすると、アップロードできます。</p>}
          </div>
        </section>
      )}
    </div>
  );
}
