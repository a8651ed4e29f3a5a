/**
 * Child flow: the parent applying as proxy must share the child's surname (spec section 5,
 * "Parent"). Compared after normalisation so that 'ヤマダ' and 'やまだ ' are the same
 * kana surname and a stray space does not count as a different name.
 */
import { messages } from '../messages.js';
import type { FieldError } from './field-error.js';
import { normalizeKanaName } from './kana.js';
import { trimSpaces } from './spaces.js';

export interface SurnameHolder {
  lastName: string | null | undefined;
  kanaLastName: string | null | undefined;
}


/**
 * The parent's fields that differ from the child's: lastName → messages.parentSurname,
 * kanaLastName → messages.parentKanaSurname. Errors are on the parent form's fields.
 * An empty parent field is left to the schema's 'required'.
 */
export function checkParentSurnames(child: SurnameHolder, parent: SurnameHolder): FieldError[] {
  const errors: FieldError[] = [];
  const parentLast = trimSpaces(parent.lastName);
  if (parentLast !== '' && parentLast !== trimSpaces(child.lastName)) {
    errors.push({ field: 'lastName', message: messages.parentSurname });
  }
  const parentKana = normalizeKanaName(parent.kanaLastName ?? '');
  if (parentKana !== '' && parentKana !== normalizeKanaName(child.kanaLastName ?? '')) {
    errors.push({ field: 'kanaLastName', message: messages.parentKanaSurname });
  }
  return errors;
}
