/**
 * Texts of answers the spec gives no wording for (the browser never shows them: it maps these
 * statuses to its error pages). Texts the spec does give are in src/domain/messages.ts.
 */
export const httpMessages = {
  notFound: 'お探しの情報は見つかりませんでした。',
  unknownBank: 'このアドレスでは口座開設のお申込みを受け付けておりません。',
  internalError: 'システムエラーが発生しました。しばらく時間をおいてから再度お試しください。',
} as const;
