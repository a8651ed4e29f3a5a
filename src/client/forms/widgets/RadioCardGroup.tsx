import type { ReactNode } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { leavesGroup } from './groupFocus';
import { invalidOf } from './invalid';

/** One radio card: its own input id, the value chosen with it and what its label shows. */
export interface RadioCard {
  inputId: string;
  value: unknown;
  checked: boolean;
  label: ReactNode;
  labelClassName?: string;
  /** Ids describing the input besides the field's own help and errors. */
  describedBy?: string;
}

type GroupProps = Pick<WidgetProps, 'id' | 'htmlName' | 'value' | 'onChange' | 'onBlur' | 'onFocus' | 'rawErrors' | 'disabled' | 'readonly' | 'required'> & {
  className: string;
  cards: RadioCard[];
};

/**
 * The radio markup of RadioCardsWidget and ChoiceCardsWidget: one input and label per card,
 * the group reporting blur only when the focus leaves all of its cards.
 */
export function RadioCardGroup({ id, htmlName, value, onChange, onBlur, onFocus, rawErrors, disabled, readonly, required, className, cards }: GroupProps) {
  return (
    <div
      className={className}
      onBlur={(event) => {
        if (leavesGroup(event)) onBlur(id, value);
      }}
      onFocus={() => onFocus(id, value)}
    >
      {cards.map((card) => (
        <div className="choice" key={card.inputId}>
          <input
            type="radio"
            id={card.inputId}
            name={htmlName || id}
            value={String(card.value)}
            checked={card.checked}
            disabled={disabled || readonly}
            className="choice__input"
            aria-invalid={invalidOf(rawErrors)}
            aria-required={required || undefined}
            aria-describedby={[ariaDescribedByIds(id), card.describedBy].filter(Boolean).join(' ')}
            onChange={() => onChange(card.value)}
          />
          <label htmlFor={card.inputId} className={card.labelClassName ?? 'choice__label'}>
            {card.label}
          </label>
        </div>
      ))}
    </div>
  );
}
