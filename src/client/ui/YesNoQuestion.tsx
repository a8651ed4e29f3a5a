import { useId, type ReactNode, type Ref } from 'react';
import { RequirementBadge, type Requirement } from './RequirementBadge';

export type YesNo = 'yes' | 'no';

export interface YesNoQuestionProps {
  /** The question itself (becomes the legend). */
  legend: ReactNode;
  value: YesNo | undefined;
  onChange: (value: YesNo) => void;
  yesLabel?: ReactNode;
  noLabel?: ReactNode;
  requirement?: Requirement;
  /** Number shown before the question ("1" → "Q1"). */
  number?: number;
  /** Explanations, lists and links between the question and the choices. */
  children?: ReactNode;
  /** Receives the fieldset, which is focusable from script so that a revealed question can be announced. */
  ref?: Ref<HTMLFieldSetElement>;
  className?: string;
  /** 'column' stacks the two choices: for long labels on narrow screens. */
  layout?: 'row' | 'column';
}

/** A yes/no question as a fieldset with two large radio buttons. */
export function YesNoQuestion({
  legend,
  value,
  onChange,
  yesLabel = 'はい',
  noLabel = 'いいえ',
  requirement = 'required',
  number,
  children,
  ref,
  className,
  layout = 'row',
}: YesNoQuestionProps) {
  const id = useId();
  const name = `question-${id}`;
  return (
    <fieldset
      ref={ref}
      className={['question', className].filter(Boolean).join(' ')}
      tabIndex={-1}
    >
      <legend className="question__legend">
        {number !== undefined && <span className="question__number">Q{number}.</span>}
        <span className="question__text">{legend}</span>
        <RequirementBadge kind={requirement} />
      </legend>
      {children && (
        <div className="question__description">
          {children}
        </div>
      )}
      <div className={`choices choices--${layout}`}>
        {(['yes', 'no'] as const).map((choice) => {
          const inputId = `${id}-${choice}`;
          return (
            <div className="choice" key={choice}>
              <input
                type="radio"
                id={inputId}
                name={name}
                value={choice}
                checked={value === choice}
                onChange={() => onChange(choice)}
                className="choice__input"
              />
              <label htmlFor={inputId} className="choice__label">
                {choice === 'yes' ? yesLabel : noLabel}
              </label>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
