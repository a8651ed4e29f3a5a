import { Fragment, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { messages } from '../../domain/messages';
import { fieldErrorsOfAnswer, isApplicationsAnswer, rememberStepAnswer } from '../api/application';
import { api, messageOf, statusOf } from '../api/client';
import type { FieldError } from '../forms/SchemaForm';
import type { ScreenProps } from '../runtime/screen';
import { Button } from '../ui/Button';

const NO_ERRORS: FieldError[] = [];

/** A step's 「戻る」: the flow's BACK, disabled while the step's request runs. */
export function BackButton({ send, disabled }: Pick<ScreenProps, 'send'> & { disabled?: boolean }) {
  return (
    <Button variant="secondary" disabled={disabled} onClick={() => send({ type: 'BACK' })}>
      戻る
    </Button>
  );
}

/** The 409s of a step POST the applicant is told on the page (the others go to the error page). */
const STEP_REFUSALS: readonly string[] = [messages.stepsLockedAfterPin, messages.revisionConflict];

/**
 * The message of a 409 a step POST answers once the PIN is set (src/server/routes/step-lock.ts)
 * or when another device stored newer answers (ADR 0030), or null for any other failure.
 * Nothing is wrong with the page: the applicant stays on it and is told why.
 */
export function stepRefusedMessage(error: unknown): string | null {
  const message = messageOf(error);
  return statusOf(error) === 409 && message !== undefined && STEP_REFUSALS.includes(message) ? message : null;
}

/**
 * A message about the whole step rather than one field (the PIN lock, a 400 without field
 * errors): `notice` is an alert for the screen to place above its form. Each `show` mounts it
 * anew, so screen readers announce it again, and moves the focus to it, so the applicant who
 * pressed 「次へ」 lands on what stopped them.
 */
export function useStepNotice(): { notice: ReactNode; show: (message: string) => void; clear: () => void } {
  const [shown, setShown] = useState<{ message: string; serial: number } | null>(null);
  const serial = useRef(0);
  const element = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (shown) element.current?.focus();
  }, [shown]);
  const show = useCallback((message: string) => {
    serial.current += 1;
    setShown({ message, serial: serial.current });
  }, []);
  const clear = useCallback(() => setShown(null), []);
  const notice = shown ? (
    <Fragment key={shown.serial}>
      <p ref={element} className="alert" role="alert" tabIndex={-1}>
        {shown.message}
      </p>
      {/* Another device stored newer answers: the page shows them, read afresh (nothing stored is lost). */}
      {shown.message === messages.revisionConflict && (
        <Button variant="secondary" onClick={() => location.reload()}>
          最新の内容を表示する
        </Button>
      )}
    </Fragment>
  ) : null;
  return { notice, show, clear };
}

/** One form's answers and where they are posted. */
export interface StepRequest {
  path: string;
  body: Record<string, unknown> | object;
}

/**
 * A step's 「次へ」: POST the step's body (or a page's several forms, one after the other, as
 * the flow lists them), then NEXT. A 400's field errors are shown at the fields of the form
 * refused (`fieldErrorsAt` its path), or as the step's `notice` when it names no field; the
 * PIN lock's and a newer revision's 409 are notices too; any other failure goes to `fail` (the error page). `busy`
 * while the requests run.
 */
export function useStepPost(send: ScreenProps['send'], fail: (error?: unknown) => void) {
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<{ path: string; errors: FieldError[] } | null>(null);
  const { notice, show, clear } = useStepNotice();
  /** True once every request was saved and NEXT sent. */
  const postInOrder = async (requests: readonly StepRequest[]): Promise<boolean> => {
    setBusy(true);
    setRefused(null);
    clear();
    let path = '';
    try {
      let answer: unknown;
      for (const request of requests) {
        path = request.path;
        answer = await api(path, { method: 'POST', body: request.body });
      }
      // The next page opens with what the application now holds.
      if (isApplicationsAnswer(answer)) rememberStepAnswer(answer);
      send({ type: 'NEXT' });
      return true;
    } catch (error) {
      const refused = stepRefusedMessage(error);
      const errors = statusOf(error) === 400 ? fieldErrorsOfAnswer(error) : NO_ERRORS;
      if (errors.length > 0) setRefused({ path, errors });
      else if (statusOf(error) === 400) show(messageOf(error) ?? messages.badRequest);
      else if (refused) show(refused);
      else fail(error);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const fieldErrorsAt = useCallback((path: string) => (refused?.path === path ? refused.errors : NO_ERRORS), [refused]);
  return { busy, fieldErrorsAt, notice, postInOrder };
}
