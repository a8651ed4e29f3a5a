import { useCallback } from 'react';
import type { DocumentType } from '../../../domain/ekyc';
import type { FlowModel } from '../../../domain/flow/model';
import { UploadError } from '../../platform/upload';
import { useFailure } from '../useFailure';

/** The supplementary documents of a child application (spec section 2, child screens). */
export type SupplementaryType = Extract<DocumentType, 'CERTIFICATE_RESIDENCE' | 'MATERNITY_HANDBOOK'>;

export interface SupplementaryDocument {
  type: SupplementaryType;
  /** Name shown at the choice. */
  name: string;
  /** What the document must show (shown under the choice). */
  description: string;
  captureLabel: string;
  previewAlt: string;
  /** How to take the photo. */
  instructions: readonly string[];
  /** The three required checks of the preview (spec section 5). */
  confirmations: readonly string[];
}

export const SUPPLEMENTARY_DOCUMENTS: readonly SupplementaryDocument[] = [
  {
    type: 'CERTIFICATE_RESIDENCE',
    name: '住民票の写し',
    description: '発行から6か月以内で、本籍・個人番号（マイナンバー）の記載が省略されているもの',
    captureLabel: '住民票の写しを撮影する',
    previewAlt: '撮影した住民票の写し',
    instructions: [
      'お子さまのお名前・ご住所・生年月日が記載されたページを撮影してください。',
      '本籍・個人番号（マイナンバー）が記載されている住民票の写しはご利用いただけません。',
      '書類全体が画面に収まるように、平らな場所に置いて撮影してください。',
      '文字がはっきり読めるよう、明るい場所で、光の反射やピンぼけがないように撮影してください。',
    ],
    confirmations: ['発行から6か月以内である', '本籍・個人番号の記載が省略されている', '文字がはっきり読める'],
  },
  {
    type: 'MATERNITY_HANDBOOK',
    name: '母子健康手帳',
    description: '出生届出済証明の印（市区町村の証明印）が押されているもの',
    captureLabel: '母子健康手帳を撮影する',
    previewAlt: '撮影した母子健康手帳',
    instructions: [
      '出生届出済証明の欄があるページ（お子さまのお名前が記載されたページ）を開いて撮影してください。',
      'ページ全体が画面に収まるように撮影してください。',
      '出生届出済証明の印がはっきり写るよう、明るい場所で、光の反射やピンぼけがないように撮影してください。',
    ],
    confirmations: ['ページ全体が写っている', '出生届出済証明の印が写っている', '文字がはっきり読める'],
  },
];

/**
 * What a capture screen does with a failed upload or a photo that cannot be converted:
 * the flow's error page (/child/error). A 401 has already been sent to the session-error page.
 */
export function useCaptureFailure(flow: FlowModel): (error: unknown) => void {
  const fail = useFailure(flow);
  return useCallback(
    (error: unknown) => {
      if (error instanceof UploadError && error.status === 401) return;
      fail(error);
    },
    [fail],
  );
}
