import { Fragment, type ReactNode } from 'react';
import type { ObjectFieldTemplateProps } from '@rjsf/utils';
import type { Occupation } from '../../../domain/masterdata';
import { messages } from '../../../domain/messages';
import { checkOccupationOther, occupationAudience, offeredOccupations, OTHER_OCCUPATION_NAME, type Today } from '../../../domain/rules';
import { ObjectFieldTemplate } from '../../forms/templates';

/**
 * The child's own occupation on /child/personal (spec sections 2, 5, 6): childDisplay
 * occupations whose age bounds (null = unbounded, inclusive) contain the child's age on the
 * chosen birthday, by displayNumber with その他 last. No valid birthday yet: all childDisplay
 * ones (as the server decides).
 */
export function childOccupations(list: readonly Occupation[], birthday: string, today: Today): Occupation[] {
  return offeredOccupations(list, occupationAudience('CHILD', birthday || null, today));
}

export interface ChildOccupationValue {
  occupationId: number | null;
  occupationOther: string;
}

export interface ChildOccupationErrors {
  occupationId?: string;
  occupationOther?: string;
}

/** What blocks the submit: no occupation, or その他 without its text (or too long). */
export function childOccupationErrors(value: ChildOccupationValue, occupations: readonly Occupation[]): ChildOccupationErrors {
  const occupation = occupations.find((item) => item.id === value.occupationId);
  const errors: ChildOccupationErrors = {};
  if (!occupation) errors.occupationId = messages.selectRequired;
  const other = checkOccupationOther(occupation, value.occupationOther);
  if (other) errors.occupationOther = other;
  return errors;
}

/**
 * POST /api/applications/workplace in the child flow: the child's occupation and invitation
 * code (verified, else null); no workplace, workplace code or existing account (spec section 3).
 */
export function childWorkplaceBody(value: ChildOccupationValue, occupations: readonly Occupation[], invitationCode: string | null): Record<string, unknown> {
  const occupation = occupations.find((item) => item.id === value.occupationId);
  const other = value.occupationOther.trim();
  return {
    occupationId: value.occupationId,
    occupationOther: occupation?.name === OTHER_OCCUPATION_NAME && other !== '' ? other : null,
    workplaceName: null,
    workplacePhoneNumber: null,
    workplaceId: null,
    invitationCode,
    existedAccountBranchCode: null,
    existedAccountNumber: null,
  };
}

export const CHILD_OCCUPATION_ID = 'child-occupationId';
export const CHILD_OCCUPATION_OTHER_ID = 'child-occupationOther';
/** The child's invitation code, below the occupation (outside the personal schema as well). */
export const CHILD_INVITATION_ID = 'child-invitationCode';

interface FieldProps {
  occupations: readonly Occupation[];
  value: ChildOccupationValue;
  errors: ChildOccupationErrors;
  disabled: boolean;
  onChange: (value: ChildOccupationValue) => void;
}

/** The select (and the その他 text), styled as the schema's own fields. */
export function ChildOccupationField({ occupations, value, errors, disabled, onChange }: FieldProps) {
  const selected = occupations.find((item) => item.id === value.occupationId);
  const other = selected?.name === OTHER_OCCUPATION_NAME;
  return (
    <>
      <div className={errors.occupationId ? 'field field--error' : 'field'}>
        <label htmlFor={CHILD_OCCUPATION_ID} className="field__label">
          ご職業
        </label>
        <select
          id={CHILD_OCCUPATION_ID}
          name={CHILD_OCCUPATION_ID}
          className="input select"
          value={value.occupationId === null ? '' : String(value.occupationId)}
          disabled={disabled}
          aria-required
          aria-invalid={errors.occupationId ? true : undefined}
          aria-describedby={`${CHILD_OCCUPATION_ID}__error`}
          onChange={({ target }) => onChange({ ...value, occupationId: target.value === '' ? null : Number(target.value) })}
        >
          <option value="">選択してください</option>
          {occupations.map((item) => (
            <option key={item.id} value={String(item.id)}>
              {item.name}
            </option>
          ))}
        </select>
        <div id={`${CHILD_OCCUPATION_ID}__error`} className="field__error" aria-live="polite">
          {errors.occupationId && <p>{errors.occupationId}</p>}
        </div>
      </div>
      {other && (
        <div className={errors.occupationOther ? 'field field--error' : 'field'}>
          <label htmlFor={CHILD_OCCUPATION_OTHER_ID} className="field__label">
            「その他」のご職業
          </label>
          <input
            id={CHILD_OCCUPATION_OTHER_ID}
            name={CHILD_OCCUPATION_OTHER_ID}
            className="input"
            autoComplete="off"
            value={value.occupationOther}
            disabled={disabled}
            aria-required
            aria-invalid={errors.occupationOther ? true : undefined}
            aria-describedby={`${CHILD_OCCUPATION_OTHER_ID}__error`}
            onChange={({ target }) => onChange({ ...value, occupationOther: target.value })}
          />
          <div id={`${CHILD_OCCUPATION_OTHER_ID}__error`} className="field__error" aria-live="polite">
            {errors.occupationOther && <p>{errors.occupationOther}</p>}
          </div>
        </div>
      )}
    </>
  );
}

/**
 * The root of the child's personal form: the schema's fields as usual, with what the screen
 * gives as formContext.afterBirthday (the occupation) right below the birthday.
 */
export function ChildPersonalFieldsTemplate(props: ObjectFieldTemplateProps) {
  if (props.fieldPathId.$id !== 'root') return <ObjectFieldTemplate {...props} />;
  const after = (props.registry.formContext as { afterBirthday?: ReactNode } | undefined)?.afterBirthday ?? null;
  const content = props.properties
    .filter((p) => !p.hidden)
    .map((p) => (
      <Fragment key={p.name}>
        {p.content}
        {p.name === 'birthday' && after}
      </Fragment>
    ));
  return <div className="form-fields">{content}</div>;
}
