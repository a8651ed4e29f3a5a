import { useRef, type CompositionEvent, type FocusEvent, type InputHTMLAttributes, type KeyboardEvent, type Ref } from 'react';

export interface ImeSafeInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'onBlur' | 'value'> {
  value: string;
  /** Every change of the text, also during an IME composition (nothing is converted then). */
  onValueChange: (value: string) => void;
  /**
   * The applicant has left the field with the text settled: on blur outside a composition, or
   * when a composition ends after the field already lost the focus (a phone keyboard closing).
   * `toSubmit` says the focus went to the submit button (validation then waits for the submit).
   */
  onLeave?: (value: string, toSubmit: boolean, next: EventTarget | null) => void;
  ref?: Ref<HTMLInputElement>;
}

/** True when the focus moves to the form's submit button. */
export function isSubmitButton(target: EventTarget | null): boolean {
  return target instanceof HTMLButtonElement && target.type === 'submit';
}

/**
 * A text input that never converts or validates while an IME composition is in progress
 * (Japanese is typed through one), and whose Enter confirming a conversion does not submit.
 */
export function ImeSafeInput({ value, onValueChange, onLeave, ref, onKeyDown, onCompositionStart, onCompositionEnd, ...rest }: ImeSafeInputProps) {
  const composing = useRef(false);
  const leftDuringComposition = useRef(false);
  return (
    <input
      {...rest}
      ref={ref}
      value={value}
      onChange={(event) => onValueChange(event.target.value)}
      onBlur={(event: FocusEvent<HTMLInputElement>) => {
        if (composing.current) {
          leftDuringComposition.current = true;
          return;
        }
        onLeave?.(event.target.value, isSubmitButton(event.relatedTarget), event.relatedTarget);
      }}
      onCompositionStart={(event) => {
        composing.current = true;
        leftDuringComposition.current = false;
        onCompositionStart?.(event);
      }}
      onCompositionEnd={(event: CompositionEvent<HTMLInputElement>) => {
        composing.current = false;
        const text = event.currentTarget.value;
        onValueChange(text);
        onCompositionEnd?.(event);
        if (leftDuringComposition.current || document.activeElement !== event.currentTarget) {
          leftDuringComposition.current = false;
          onLeave?.(text, false, null);
        }
      }}
      onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
        if (event.key === 'Enter' && (event.nativeEvent.isComposing || composing.current)) event.preventDefault();
        onKeyDown?.(event);
      }}
    />
  );
}
