import { useCallback, useMemo, useRef, useState } from 'react';
import { ariaDescribedByIds } from '@rjsf/utils';
import { messages } from '../../../domain/messages';
import { isInvitationCodeShape, normalizeWorkplaceCode } from '../../../domain/rules';
import { api, statusOf } from '../../api/client';
import { CodeApplyInput, type CodeField, type CodeStatus } from '../../forms/widgets/CodeApplyWidget';
import { RequirementBadge } from '../../ui/RequirementBadge';

/**
 * The invitation code (紹介コード) of both flows (spec sections 2, 4, 7 and 8): on /workplace
 * inside the workplace form, on /child/personal below the child's occupation; either way sent
 * with POST /api/applications/workplace. Unverified while typed; 「適用」 asks GET /api/invitation:
 * verified (locked, read-only, only 「クリア」 left) or not found (404, with its message);
 * 「クリア」 starts over. A code typed but not applied, or not found, blocks the step; only a
 * verified code is sent.
 */

export interface CodeState {
  /** As typed; half width and upper case once the applicant has left the input. */
  text: string;
  status: CodeStatus;
  busy: boolean;
}

export const EMPTY_CODE: CodeState = { text: '', status: 'unverified', busy: false };

export const INVITATION_TITLE = '紹介コード';
export const INVITATION_DESCRIPTION = '紹介コードをお持ちの方は、入力して「適用」を押してください。';
const INVITATION_LENGTH = 6;

/** Whether an invitation code is valid: one not 6 letters or digits long is not asked for. */
export async function lookupInvitation(code: string): Promise<boolean> {
  if (!isInvitationCodeShape(code)) return false;
  try {
    await api('/invitation', { query: { code } });
    return true;
  } catch (error) {
    if (statusOf(error) === 404) return false;
    throw error;
  }
}

/**
 * What blocks the step for a code (spec section 5), in the order shown: none for an empty or
 * verified code; a code typed but not applied asks to 「適用」 or 「クリア」; a code not found says
 * so and asks the same, so the applicant knows how to go on.
 */
export function codeErrors(code: CodeState, notFound: string): string[] {
  if (code.text.trim() === '' || code.status === 'verified') return [];
  return code.status === 'notFound' ? [notFound, messages.confirmCode] : [messages.confirmCode];
}

export const invitationErrors = (code: CodeState): string[] => codeErrors(code, messages.invitationNotFound);

/** What is sent: the code only when verified. */
export const verifiedInvitation = (code: CodeState): string | null => (code.status === 'verified' ? code.text : null);

/**
 * The code as the step opens. Coming back to a saved step: the saved code, verified then and
 * not asked for again (none saved: empty). First visit: the code of the landing URL, applied
 * once as if the applicant had pressed 「適用」.
 */
export async function openInvitation(returning: boolean, saved: string | null | undefined, fromLanding: string | null): Promise<CodeState> {
  const text = normalizeWorkplaceCode(returning ? (saved ?? '') : (fromLanding ?? ''));
  if (!text) return EMPTY_CODE;
  const valid = returning ? true : await lookupInvitation(text);
  return { text, status: valid ? 'verified' : 'notFound', busy: false };
}

/**
 * The callbacks of the invitation code over a CodeState the screen keeps: `read` gives the
 * latest state (a ref, current before React renders), `write` updates it. Stable as long as
 * the three functions are (the form compares its props deeply and takes functions as unchanged).
 */
export function invitationCallbacks(
  read: () => CodeState,
  write: (update: (code: CodeState) => CodeState) => void,
  fail: (error: unknown) => void,
): Omit<CodeField, 'text' | 'status' | 'busy'> {
  return {
    name: INVITATION_TITLE,
    maxLength: INVITATION_LENGTH,
    onText: (text) => write((code) => ({ ...code, text, status: 'unverified' })),
    onLeave: () => write((code) => ({ ...code, text: normalizeWorkplaceCode(code.text) })),
    onApply: async () => {
      const text = normalizeWorkplaceCode(read().text);
      write(() => ({ text, status: 'unverified', busy: true }));
      try {
        const valid = await lookupInvitation(text);
        write(() => ({ text, status: valid ? 'verified' : 'notFound', busy: false }));
      } catch (error) {
        write((code) => ({ ...code, busy: false }));
        fail(error);
      }
    },
    onClear: () => write(() => EMPTY_CODE),
  };
}

/**
 * The invitation code of a screen whose form schema has no such field (/child/personal): its
 * state, the callbacks of its input, and when its message shows — once the code was left,
 * applied, cleared or the step submitted (`settle`), and only until the code changes.
 */
const NO_MESSAGES: string[] = [];
const sameMessages = (a: string[], b: string[]) => a.length === b.length && a.every((message, index) => message === b[index]);

export function useInvitationCode(fail: (error: unknown) => void) {
  const [code, setCode] = useState<CodeState>(EMPTY_CODE);
  // Current before React renders: the callbacks read it after an await.
  const codeRef = useRef(code);
  const write = useCallback((update: (current: CodeState) => CodeState) => {
    codeRef.current = update(codeRef.current);
    setCode(codeRef.current);
  }, []);
  const callbacks = useMemo(() => invitationCallbacks(() => codeRef.current, write, fail), [write, fail]);
  const [shown, setShown] = useState<string[]>([]);
  const settle = useCallback(() => setShown(invitationErrors(codeRef.current)), []);
  return {
    field: { ...callbacks, ...code } satisfies CodeField,
    /** The messages at the field: those shown last, while the code still has them. */
    messages: sameMessages(invitationErrors(code), shown) ? shown : NO_MESSAGES,
    settle,
    /** The code as the step opens (see openInvitation). */
    open: useCallback((opened: CodeState) => write(() => opened), [write]),
    /** On 「次へ」: whether the code blocks the step (its messages now shown). */
    blocks: useCallback(() => {
      settle();
      return invitationErrors(codeRef.current).length > 0;
    }, [settle]),
    /** What the step sends: the code only when verified. */
    verified: useCallback(() => verifiedInvitation(codeRef.current), []),
    /** The server's 400 for a code that ended since it was applied: not found, as on 「適用」. */
    refuse: useCallback(() => {
      write((current) => ({ ...current, status: 'notFound' }));
      settle();
    }, [write, settle]),
  };
}

interface InvitationFieldProps {
  /** The control id, in the id scheme of the page it sits in (e.g. child-invitationCode). */
  id: string;
  field: CodeField;
  /** The messages to show (the screen decides when: after the field was left or a submit). */
  errors: string[];
  onSettle: () => void;
}

/**
 * The invitation code as a field of its own, for a form whose schema has none (/child/personal):
 * the markup of our FieldTemplate (label tied to the input, optional badge, description, error
 * announced politely and linked by aria-describedby) around the same input as on /workplace.
 */
export function InvitationField({ id, field, errors, onSettle }: InvitationFieldProps) {
  const invalid = errors.length > 0;
  return (
    <div className={`field${invalid ? ' field--error' : ''}`}>
      <label htmlFor={id} className="field__label">
        {INVITATION_TITLE}
        <RequirementBadge kind="optional" />
      </label>
      <div id={`${id}__description`} className="field-description">
        {INVITATION_DESCRIPTION}
      </div>
      <CodeApplyInput id={id} field={field} invalid={invalid} describedBy={ariaDescribedByIds(id)} onSettle={onSettle} />
      <div id={`${id}__error`} className="field__error" aria-live="polite">
        {errors.map((message) => (
          <p key={message}>{message}</p>
        ))}
      </div>
    </div>
  );
}
