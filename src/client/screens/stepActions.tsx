import { useState } from 'react';
import { fieldErrorsOfAnswer } from '../api/application';
import { api, statusOf } from '../api/client';
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

/**
 * A step's 「次へ」: POST the step's body, then NEXT; a 400's field errors are shown at their
 * fields, any other failure goes to `fail` (the error page). `busy` while the request runs.
 */
export function useStepPost(send: ScreenProps['send'], fail: (error?: unknown) => void) {
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldError[]>(NO_ERRORS);
  const post = async (path: string, body: Record<string, unknown> | object) => {
    setBusy(true);
    setFieldErrors(NO_ERRORS);
    try {
      await api(path, { method: 'POST', body });
      send({ type: 'NEXT' });
    } catch (error) {
      if (statusOf(error) === 400) setFieldErrors(fieldErrorsOfAnswer(error));
      else fail(error);
    } finally {
      setBusy(false);
    }
  };
  return { busy, fieldErrors, post };
}
