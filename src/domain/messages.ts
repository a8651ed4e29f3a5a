/** The spec's "N文字以内で入力してください。" for every length limit. */
const tooLong = (max: number) => `${max}文字以内で入力してください。`;

/**
 * Every message the spec gives in Japanese, word for word, in one place. The JSON Schemas
 * name them by key in their `errorMessage` keywords ("required", or "tooLong:20" for a
 * message with an argument), resolved by src/domain/schemas/messages.ts for the browser's
 * validators and the server alike; the client shows them at the field and the server answers
 * 400 with them.
 */
export const messages = {
  mailAddress: 'メールアドレスを正しく入力してください。',
  verificationFailed: '認証に失敗しました。認証コードが正しく入力されているかご確認ください。',
  verificationCodeRequired: '認証コードを入力してください。',
  tooManyRequests: '短時間に多数のお申込みがありました。しばらく時間をおいてから再度お試しください。',
  required: '入力が必須です。',
  selectRequired: '選択が必須です。',
  tooLong,
  nameTooLong: tooLong(24),
  kanaNameTooLong: tooLong(48),
  katakana: 'カタカナで入力してください。',
  unusableCharacters: (chars: string) => `${chars} は使用できません。`,
  workplaceForbiddenCharacters: (chars: string) => `${chars}は使用できません。`,
  birthdayInvalid: '生年月日を正しく入力してください。',
  generalUnder18: '18歳未満の方はお申込みできません。',
  childAge: '生まれていない又は18歳以上の方はお申込みできません。',
  parentUnder18: '18歳未満の方は親権者としてお申込みできません。',
  mobilePhone: '携帯電話番号を正しく入力してください。',
  homePhone: '自宅電話番号を正しく入力してください。',
  searchAddress: '住所を検索してください',
  convertNumerals: '数字を変換してください。（例：「Ⅰ Ⅱ Ⅲ」→「1 2 3」）',
  purposeOtherRequired: '「その他」の場合は入力が必須です。',
  purposeOtherTooLong: tooLong(24),
  distanceReasonTooLong: tooLong(50),
  occupationOtherTooLong: tooLong(25),
  workplaceNameTooLong: tooLong(25),
  confirmCode: '「適用」または「クリア」でコードを確定してください。',
  workplacePhone: '勤務先電話番号を正しく入力してください。',
  existingAccount: '店番・口座番号を正しく入力してください。',
  parentSurname: '親権者さまとお子さまの姓が異なっています。',
  parentKanaSurname: '親権者さまとお子さまの姓(セイ)が異なっています。',
  workplaceNotFound: '該当するコードがありません。正しく入力されているかご確認ください。',
  invitationNotFound: '該当する紹介コードがありません。正しく入力されているかご確認ください。',
  pinMismatch: '暗証番号が一致しません。再度入力してください。',
  pinFormat: '暗証番号は4桁の半角数字で入力してください。',
  pinForbidden: '入力された暗証番号は設定できません。',
  pinBirthday: '生年月日は暗証番号に利用できません。',
  pinPhone: '電話番号の一部は暗証番号に利用できません。',
  pinAddress: '住所の一部は暗証番号に利用できません。',
  /** The /pin warning modal (spec section 2: edits are impossible afterwards). */
  pinWarning: '暗証番号の設定後は、入力内容の修正ができません。よろしいですか？',
  /** 409 of a step-editing POST once the PIN is set: the warning's own words, as a statement. */
  stepsLockedAfterPin: '暗証番号の設定後は、入力内容の修正ができません。',
  /** 409 of a form step posted before a form it comes after (x-step.after), named by that form's confirmation title. */
  stepFirst: (title: string) => `${title}を先に登録してください。`,
  regulationsDisagreed: '同意をいただけない場合、本サービスをご利用できません。',
  childNotEligible: '上記の条件を満たさない場合、本サービスはご利用できません。お近くの店舗にご相談ください。',
  ekycError: '本人確認時にエラーが発生しました。お手数ですが、再度本人確認をお願いいたします。',
  /**
   * The eKYC error page when the card's data differ from the entry (an OpenID Connect check,
   * docs/adr/0035): whose entry (ekycMismatchWhose), which items (ekycMismatchFields joined
   * with ・), then what to do: the card changed note when the name or address differ, and the entry note.
   */
  ekycMismatch: (whose: string, items: string) => `マイナンバーカードの情報と、ご入力いただいた${whose}（${items}）が一致しませんでした。`,
  ekycMismatchWhose: { GENERAL: 'お客さま情報', CHILD: '親権者さまの情報' },
  ekycMismatchFields: { name: '氏名', birthday: '生年月日', address: '住所' },
  ekycMismatchCardChanged:
    'お引っ越しやご結婚などで住所や氏名が変わった場合は、お住まいの市区町村の窓口でマイナンバーカードの記載内容を変更していただいたうえで、あらためて本人確認をお願いいたします。',
  ekycMismatchEntry:
    'ご入力内容に誤りがあった場合は、お手数ですが、正しい内容で最初からお申込みください。あわせて、ご本人さまのマイナンバーカードをお使いいただいたかもご確認ください。',
  supplementUploadError: '現住所確認書類のアップロード時にエラーが発生しました。お手数ですが、再度アップロードをお願いいたします。',
  workplaceOrInvitationReminder: '勤務先コードまたは紹介コードの入力をお忘れではありませんか？',
  badRequest: '入力内容に誤りがあります。ご確認ください。',
  /** The system error page and every 500 (spec section 8: an apology and "try again later"). */
  systemError: 'システムエラーが発生しました。しばらく時間をおいてから再度お試しください。',
  unauthorized: '一定時間が経過したため、お申込みが中断されました。お手数ですが、再度お申込みください。',
  /**
   * Resume (ADR 0030). Only the owner of the mailbox, who typed the code sent there, reads the
   * two answers below: register answers alike for every address.
   */
  resumeNotFound: (days: number) =>
    `再開できるお申込みが見つかりませんでした。お申込み内容の保存期間は、最後にご入力いただいた日から${days}日間です。お手数ですが、最初からお申込みください。`,
  resumeCompleted: 'このメールアドレスでのお申込みは受付が完了しているため、再開できません。',
  /** 409 of a step posted from a page older than what is stored (another device or tab wrote since). */
  revisionConflict: '別の画面または別の端末で、お申込み内容が更新されています。最新の内容を表示してから、もう一度お進みください。',
} as const;

export type MessageKey = keyof typeof messages;
