import { useId, type ReactNode, type Ref } from 'react';
import { RequirementBadge } from '../../ui/RequirementBadge';

export interface AcknowledgementProps {
  title: ReactNode;
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  number?: number;
  children: ReactNode;
  ref?: Ref<HTMLFieldSetElement>;
}

/** A required confirmation: an explanation and one checkbox, grouped so it can be announced on reveal. */
export function Acknowledgement({ title, label, checked, onChange, number, children, ref }: AcknowledgementProps) {
  const id = useId();
  return (
    <fieldset ref={ref} className="question question--acknowledgement" tabIndex={-1}>
      <legend className="question__legend">
        {number !== undefined && <span className="question__number">Q{number}.</span>}
        <span className="question__text">{title}</span>
        <RequirementBadge kind="required" />
      </legend>
      <div className="question__description">{children}</div>
      <div className="checkbox">
        <input
          id={id}
          type="checkbox"
          className="checkbox__input"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
        />
        <label htmlFor={id} className="checkbox__label">
          {label}
        </label>
      </div>
    </fieldset>
  );
}
