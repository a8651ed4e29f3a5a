/**
 * Screen texts of the general landing page around its checklist. The checklist itself (the
 * questions, their messages, acknowledgements and links) is data: checklists/general-term.json.
 */
export const termTexts = {
  intro: (bankName: string) =>
    `${bankName}の普通預金口座を、スマートフォンからお申込みいただけるサービスです。通帳を発行しない口座で、原則として印鑑（お届け印）の登録も不要です。`,
  refusalNote: '※ 条件を満たしている場合でも、当行の判断により口座開設をお断りする場合がございます。あらかじめご了承ください。',
} as const;
