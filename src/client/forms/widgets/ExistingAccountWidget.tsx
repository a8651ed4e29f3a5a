import { useState, type FocusEvent } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { messages } from '../../../domain/messages';
import { RequirementBadge } from '../../ui/RequirementBadge';
import { schemaFormContextOf, type FormData } from '../context';
import { pageStateKey } from '../pageState';
import type { WidgetBehaviour } from './behaviour';
import { leavesGroup } from './groupFocus';
import { invalidOf } from './invalid';

export type Answer = 'yes' | 'no';

function answerOf(value: unknown): Answer | undefined {
  return value === 'yes' || value === 'no' ? value : undefined;
}

function accountFieldOf(options: Record<string, unknown>, field: string): string {
  if (typeof options.accountField !== 'string') throw new Error(`ExistingAccountWidget of "${field}" needs "ui:options": { "accountField": <the account number's field> }`);
  return options.accountField;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

const ANSWERS: ReadonlyArray<{ value: Answer; label: string }> = [
  { value: 'yes', label: 'はい' },
  { value: 'no', label: 'いいえ' },
];

/**
 * The existing-account section of a workplace that permits several accounts: yes/no, then
 * 店番 (3 digits, this field's value) and 口座番号 (7 digits, the field ui:options.accountField
 * names), zero-padded by their x-normalize. The yes/no is the page's state beside the answer
 * (pageState.ts): 「いいえ」 empties both numbers. The errors of both show under the whole
 * section; use it with ui:options.group, the legend being the question 「お持ちの口座がありますか」.
 */
export function ExistingAccountWidget({ id, name, value, options, rawErrors, onBlur, onFocus, registry }: WidgetProps) {
  const context = schemaFormContextOf(registry.formContext);
  if (!context) throw new Error(`ExistingAccountWidget ${id} needs the form's context`);
  const { form } = context;
  const accountField = accountFieldOf(options, name);
  // The account number is another field's: a change of it does not draw this widget again, so it shows its own copy.
  const [account, setAccount] = useState(() => text(form.getData()[accountField]));
  const field = {
    answer: answerOf(options.pageState),
    branch: text(value),
    account,
    onAnswer: (answer: Answer) => {
      if (answer === 'no') setAccount('');
      form.patch({ [pageStateKey(name)]: answer, ...(answer === 'no' ? { [name]: undefined, [accountField]: undefined } : {}) });
    },
    onBranch: (branch: string) => form.patch({ [name]: branch === '' ? undefined : branch }),
    onAccount: (typed: string) => {
      setAccount(typed);
      form.patch({ [accountField]: typed === '' ? undefined : typed });
    },
  };
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

/**
 * Coming back to a stored step: 「はい」 with the numbers given, 「いいえ」 for a workplace that
 * permitted an account none was given for. Before 「はい」 or 「いいえ」 is chosen, or 「はい」 with
 * neither number, 次へ is blocked (the numbers themselves are the schema's and the rules').
 */
export const existingAccountBehaviour: WidgetBehaviour = {
  asksRequiredQuestion: true,
  open: async (data, { field, options, stored }) => {
    const key = pageStateKey(field);
    if (data[key] !== undefined) return null;
    if (text(data[field]) !== '' || text(data[accountFieldOf(options, field)]) !== '') return { [key]: 'yes' };
    return stored && data.multipleAccountsPermitted === true ? { [key]: 'no' } : null;
  },
  check: (field, data: FormData, options) => {
    const answer = answerOf(data[pageStateKey(field)]);
    if (answer === undefined) return [{ field, message: messages.selectRequired }];
    const empty = text(data[field]).trim() === '' && text(data[accountFieldOf(options, field)]).trim() === '';
    return answer === 'yes' && empty ? [{ field, message: messages.existingAccount }] : [];
  },
};
