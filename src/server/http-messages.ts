import { messages } from '../domain/messages.js';

/**
 * Texts of answers the spec gives no wording for (the browser never shows them: it maps these
 * statuses to its error pages). Texts the spec does give are in src/domain/messages.ts.
 */
export const httpMessages = {
  notFound: 'お探しの情報は見つかりませんでした。',
  unknownBank: 'このアドレスでは口座開設のお申込みを受け付けておりません。',
  internalError: messages.systemError,
  // Request-boundary refusals (src/server/boundary/errors.ts).
  payloadTooLarge: '送信されたデータが大きすぎます。',
  unsupportedMediaType: '送信されたデータの形式に対応しておりません。',
  requestTimeout: '通信がタイムアウトしました。通信環境の良い場所で、再度お試しください。',
  conflict: '同じお手続きが同時に行われました。お手数ですが、再度お試しください。',
  // PIN, identity check, documents, completion (409 = the step cannot be done in this state).
  pinAlreadySet: '暗証番号はすでに設定されています。設定後の変更はできません。',
  pinNotSet: '暗証番号が設定されていません。',
  stepsIncomplete: 'お申込み内容の入力が完了していません。',
  applicationCompleted: 'お申込みはすでに完了しています。',
  ekycApproved: '本人確認はすでに完了しています。',
  ekycTooManyAttempts: '本人確認の回数が上限に達しました。お手数ですが、お近くの店舗にご相談ください。',
  ekycNotStarted: '本人確認が開始されていません。',
  ekycNotApproved: '本人確認が完了していません。',
  ekycMethodNotOffered: 'この本人確認の方法は現在ご利用いただけません。お手数ですが、本人確認の準備の画面からやり直してください。',
  documentsMissing: '本人確認書類のアップロードが完了していません。',
  supplementMissing: '現住所確認書類のアップロードが完了していません。',
  documentNotExpected: 'この書類のアップロードは現在受け付けておりません。',
  documentTooLarge: '画像のファイルサイズが大きすぎます。1MB以下の画像をアップロードしてください。',
  documentType: 'JPEGまたはPNG形式の画像をアップロードしてください。',
  documentUnreadable: '画像を読み込めませんでした。お手数ですが、撮影し直してください。',
  documentDimensions: '画像の大きさが対応しておりません。お手数ですが、撮影し直してください。',
  // To the provider, not the applicant: a callback whose signature or time did not verify.
  ekycCallbackRefused: '署名を確認できませんでした。',
} as const;
