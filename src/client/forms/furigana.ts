import { useCallback, useRef } from 'react';
import { FURIGANA_MAX_LENGTH, normalizeKanaName } from '../../domain/rules';
import { api } from '../api/client';
import type { FormApi, FormData } from './context';

/**
 * Furigana suggested for a name, the same for every name pair of every form (the applicant's,
 * the child's, the parent's): when the applicant leaves お名前（姓）or（名）, the server's reading
 * goes into the empty kana field beside it, as half-width katakana. A kana the applicant typed
 * is never overwritten; one still holding the last suggestion follows a changed name.
 */

/** Kanji or hiragana (with 々〆ヶ and the long vowel mark), at most 20 characters: worth asking for furigana. */
export function isFuriganaTarget(value: string): boolean {
  const trimmed = value.trim();
  return trimmed !== '' && [...trimmed].length <= FURIGANA_MAX_LENGTH && /^[\p{Script=Han}\p{Script=Hiragana}々〆ヶー]+$/u.test(trimmed);
}

/** Kana field the furigana of a name field goes to (the same field names in every name schema). */
export const FURIGANA_TARGETS: Readonly<Record<string, string>> = {
  lastName: 'kanaLastName',
  firstName: 'kanaFirstName',
};

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * The form's onFieldBlur for name fields: suggests the furigana of the name just left. A failed
 * call goes to `fail` (the flow's error page; a 401 to the session error).
 */
export function useFuriganaSuggestion(fail: (error?: unknown) => void): (field: string, form: FormApi) => void {
  /** The furigana last suggested per kana field: a kana field still holding it was not typed by the applicant. */
  const suggested = useRef<Record<string, string>>({});
  const suggest = useCallback(
    async (field: string, form: FormApi) => {
      const kanaField = FURIGANA_TARGETS[field];
      if (!kanaField) return;
      const name = text(form.getData()[field]).trim();
      if (!isFuriganaTarget(name)) return;
      const typedByApplicant = (current: FormData) => {
        const kana = text(current[kanaField]);
        return kana !== '' && kana !== suggested.current[kanaField];
      };
      if (typedByApplicant(form.getData())) return;
      let kana: string;
      try {
        ({ kana } = await api<{ kana: string }>('/furigana', { query: { kanji: name } }));
      } catch (error) {
        fail(error);
        return;
      }
      const suggestion = normalizeKanaName(kana);
      form.patch((current) => {
        // The name changed meanwhile, or the applicant typed the kana themselves: leave it.
        if (text(current[field]).trim() !== name || typedByApplicant(current) || suggestion === '') return {};
        suggested.current[kanaField] = suggestion;
        return { [kanaField]: suggestion };
      });
    },
    [fail],
  );
  return useCallback((field: string, form: FormApi) => void suggest(field, form), [suggest]);
}
