/** Who is "on the card", as the stand-in's interaction page labels the choice; the browser tests pick by these same texts. */
export const identityLabels = {
  self: 'お申込み内容と同じ方（氏名・生年月日・住所が一致）',
  other: 'お申込み内容と異なる方（佐藤 一郎さま）',
} as const;
