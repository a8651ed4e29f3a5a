import type { FocusEvent } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { RequirementBadge } from '../../ui/RequirementBadge';
import { leavesGroup } from './groupFocus';
import { invalidOf } from './invalid';

export type Answer = 'yes' | 'no';

/** What the screen tells the widget through `ui:options.existingAccount`. Callbacks must be stable. */
export interface ExistingAccountField {
  answer: Answer | undefined;
  /** 店番 and 口座番号 as typed (zero-padded only when sent). */
  branch: string;
  account: string;
  onAnswer: (answer: Answer) => void;
  onBranch: (value: string) => void;
  onAccount: (value: string) => void;
}

function isExistingAccountField(value: unknown): value is ExistingAccountField {
  return !!value && typeof value === 'object' && 'onAnswer' in value && 'branch' in value;
}

const ANSWERS: ReadonlyArray<{ value: Answer; label: string }> = [
  { value: 'yes', label: 'はい' },
  { value: 'no', label: 'いいえ' },
];

/**
 * The existing-account section of a workplace that permits several accounts: yes/no, then
 * 店番 (3 digits) and 口座番号 (7 digits), which are zero-padded when sent. One field of the
 * form (existedAccountBranchCode) whose errors show under the whole section; use it with
 * ui:options.group, the legend being the question 「お持ちの口座がありますか」.
 */
export function ExistingAccountWidget({ id, options, rawErrors, onBlur, onFocus }: WidgetProps) {
  const field = options.existingAccount;
  if (!isExistingAccountField(field)) throw new Error(`ExistingAccountWidget ${id} needs ui:options.existingAccount`);
  const invalid = invalidOf(rawErrors);
  const describedBy = ariaDescribedByIds(id);
  const numberInput = (kind: 'branch' | 'account') => {
    const branch = kind === 'branch';
    const inputId = `${id}__${kind}`;
    return (
      <div className={`existing-account__number existing-account__number--${kind}`}>
        <label htmlFor={inputId} className="field__label">
          {branch ? '店番' : '口座番号'}
          <RequirementBadge kind="required" />
        </label>
        <input
          id={inputId}
          name={inputId}
          className="input"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          maxLength={branch ? 3 : 7}
          placeholder={branch ? '例：123' : '例：1234567'}
          value={branch ? field.branch : field.account}
          aria-required
          aria-invalid={invalid}
          aria-describedby={describedBy}
          onChange={(event) => (branch ? field.onBranch : field.onAccount)(event.target.value)}
        />
      </div>
    );
  };
  return (
    <div
      className="existing-account"
      onBlur={(event: FocusEvent<HTMLDivElement>) => {
        if (leavesGroup(event)) onBlur(id, undefined);
      }}
      onFocus={() => onFocus(id, undefined)}
    >
      <p className="note">すでに当行の口座をお持ちの場合は「はい」を選択し、その口座の店番と口座番号を入力してください。</p>
      <div className="choices choices--row">
        {ANSWERS.map(({ value, label }) => {
          // Once 「はい」 is chosen, an error is about the numbers: the radios then get ids outside
          // the form's root_ ids (see focusFirstOf in SchemaForm), so the focus goes to 店番.
          const inputId = field.answer === 'yes' ? `answer-${id}__${value}` : `${id}__${value}`;
          return (
            <div className="choice" key={value}>
              <input
                type="radio"
                id={inputId}
                name={`${id}__answer`}
                value={value}
                className="choice__input"
                checked={field.answer === value}
                aria-invalid={(invalid && field.answer === undefined) || undefined}
                aria-describedby={describedBy}
                onChange={() => field.onAnswer(value)}
              />
              <label htmlFor={inputId} className="choice__label">
                {label}
              </label>
            </div>
          );
        })}
      </div>
      {field.answer === 'yes' && (
        <div className="existing-account__numbers">
          {numberInput('branch')}
          {numberInput('account')}
          <p className="note">店番が3桁、口座番号が7桁に満たない場合は、先頭に0を補ってお手続きします。</p>
        </div>
      )}
    </div>
  );
}
