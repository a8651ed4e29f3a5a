import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { messages } from '../../../domain/messages';
import { normalizeWorkplaceCode } from '../../../domain/rules';
import { codeKinds, isCodeKindName, type CodeKind } from '../codes';
import { failOf, schemaFormContextOf, type FormData } from '../context';
import { pageStateKey } from '../pageState';
import type { WidgetBehaviour } from './behaviour';
import { ImeSafeInput } from './ImeSafeInput';
import { invalidOf } from './invalid';

export type CodeStatus = 'unverified' | 'verified' | 'notFound';

/** What the screen tells the widget through `ui:options.code`. Callbacks must be stable (see SchemaForm). */
export interface CodeField {
  /** The code as typed (after blur: half width, upper case). */
  text: string;
  status: CodeStatus;
  /** A lookup is running. */
  busy: boolean;
  /** Name of the code for screen readers on the buttons ('勤務先コード'). */
  name: string;
  maxLength: number;
  onText: (text: string) => void;
  /** Leaving the input: the screen normalises what was typed. */
  onLeave: () => void;
  onApply: () => Promise<void>;
  onClear: () => void;
}

function isCodeField(value: unknown): value is CodeField {
  return !!value && typeof value === 'object' && 'onApply' in value && 'text' in value;
}

/** What CodeApplyInput needs besides the code: the control id, the error state, the form's blur and focus. */
export interface CodeApplyInputProps {
  id: string;
  field: CodeField;
  invalid: boolean;
  required?: boolean;
  /** aria-describedby besides the status line (the field's error, description and help). */
  describedBy: string;
  /** The field counts as left: the form (or the screen) checks it now. */
  onSettle: () => void;
  onFocus?: () => void;
}

/**
 * A code with 「適用」 and 「クリア」 (workplace code, invitation code): the input, its two
 * buttons and the status line, inside an rjsf form (CodeApplyWidget) or outside one (the
 * invitation code of /child/personal, whose shared personal form has no such field). Once applied, the code is
 * locked: read-only, with only 「クリア」. Enter in the input applies instead of submitting the form.
 */
export function CodeApplyInput({ id, field, invalid, required, describedBy, onSettle, onFocus }: CodeApplyInputProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const { text, status, busy, name, maxLength } = field;
  const verified = status === 'verified';

  // The outcome of 「適用」 / 「クリア」 is checked like a field the applicant has left: a code not
  // found says so at once, an earlier 「適用」または「クリア」 message goes away.
  const apply = async () => {
    await field.onApply();
    inputRef.current?.focus();
    onSettle();
  };
  const clear = () => {
    field.onClear();
    inputRef.current?.focus();
    onSettle();
  };
  // A code applied for the applicant before the page showed (from the landing URL) and not
  // found: its message shows at once.
  const initiallyNotFound = useRef(status === 'notFound');
  useEffect(() => {
    if (initiallyNotFound.current) onSettle();
    // Once, on mount: what the first render found.
  }, []);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (!verified && text.trim() !== '' && !busy) void apply();
  };
  const onLeave = (_text: string, toSubmit: boolean, next: EventTarget | null) => {
    field.onLeave();
    // Going to this field's own buttons is not leaving it (no "please apply" yet), and the
    // submit button checks everything anyway.
    if (toSubmit || (next instanceof Node && inputRef.current?.parentElement?.contains(next))) return;
    // Let the normalised text land before the field is checked.
    setTimeout(onSettle, 0);
  };

  return (
    <div className={`code-field${verified ? ' code-field--verified' : ''}`}>
      <div className="code-field__row">
        <ImeSafeInput
          ref={inputRef}
          id={id}
          name={id}
          type="text"
          className="input code-field__input"
          value={text}
          readOnly={verified}
          maxLength={maxLength}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-required={required || undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={`${describedBy} ${id}__status`}
          onValueChange={field.onText}
          onLeave={onLeave}
          onFocus={onFocus}
          onKeyDown={onKeyDown}
        />
        {!verified && (
          <button
            type="button"
            className="button button--secondary code-field__button"
            disabled={busy || text.trim() === ''}
            aria-busy={busy || undefined}
            onClick={() => void apply()}
          >
            適用<span className="visually-hidden">（{name}）</span>
          </button>
        )}
        <button
          type="button"
          className="button button--secondary code-field__button"
          disabled={busy || (text === '' && status === 'unverified')}
          onClick={clear}
        >
          クリア<span className="visually-hidden">（{name}）</span>
        </button>
      </div>
      <p id={`${id}__status`} className="code-field__status" aria-live="polite">
        {busy ? '確認しています…' : verified ? `${name}を適用しました。` : ''}
      </p>
    </div>
  );
}

/** A code as the page keeps it beside the field's answer (pageState.ts): as typed, and what 「適用」 found. */
export interface CodeEntry {
  text: string;
  status: CodeStatus;
}

export const EMPTY_CODE: CodeEntry = { text: '', status: 'unverified' };

export function codeEntryOf(value: unknown): CodeEntry {
  if (!value || typeof value !== 'object') return EMPTY_CODE;
  const { text, status } = value as Partial<CodeEntry>;
  return { text: typeof text === 'string' ? text : '', status: status === 'verified' || status === 'notFound' ? status : 'unverified' };
}

/** The answers a kind of code brings, emptied. */
const clearedBy = (kind: CodeKind): FormData => Object.fromEntries(kind.clears.map((field) => [field, undefined]));

function kindOf(options: Record<string, unknown>, field: string): CodeKind {
  const name = options.code;
  if (!isCodeKindName(name)) throw new Error(`CodeApplyWidget of "${field}" needs "ui:options": { "code": <${Object.keys(codeKinds).join(' | ')}> }`);
  return codeKinds[name];
}

/**
 * CodeApplyInput as an rjsf widget (`"ui:options": { "code": "workplace" }`, forms/codes.ts).
 * The field's value is what the code resolves to (a workplace id, a verified invitation code);
 * the code as typed and whether it was found are the page's state beside it (`<field>@page`),
 * so a draft keeps them and the check below sees them. A found code also writes what it brings
 * (the workplace's name and phone); 「クリア」 empties all of it.
 */
export function CodeApplyWidget({ id, name, options, rawErrors, required, onBlur, onFocus, registry }: WidgetProps) {
  const context = schemaFormContextOf(registry.formContext);
  if (!context) throw new Error(`CodeApplyWidget ${id} needs the form's context`);
  const { form } = context;
  const kind = kindOf(options, name);
  const [busy, setBusy] = useState(false);
  const key = pageStateKey(name);
  const current = () => codeEntryOf(form.getData()[key]);
  const entry = codeEntryOf(options.pageState);
  // The server says an applied code is not found (one that ended since it was applied): it is
  // not found here too, open to correct or clear, and its messages show at once.
  const refused = entry.status === 'verified' && (rawErrors ?? []).includes(kind.notFound);
  useEffect(() => {
    if (!refused) return;
    form.patch({ [name]: undefined, ...clearedBy(kind), [key]: { ...current(), status: 'notFound' } });
    onBlur(id, undefined);
    // Once per refusal: the patch ends it.
  }, [refused]);

  const field: CodeField = {
    ...entry,
    busy,
    name: kind.name,
    maxLength: kind.maxLength,
    onText: (text) => form.patch({ [key]: { text, status: 'unverified' } }),
    onLeave: () => form.patch({ [key]: { ...current(), text: normalizeWorkplaceCode(current().text) } }),
    onApply: async () => {
      const text = normalizeWorkplaceCode(current().text);
      setBusy(true);
      try {
        const found = await kind.find(text);
        form.patch({ [name]: found?.value, ...clearedBy(kind), ...found?.brings, [key]: { text, status: found ? 'verified' : 'notFound' } });
      } catch (error) {
        failOf(context)(error);
      } finally {
        setBusy(false);
      }
    },
    onClear: () => form.patch({ [name]: undefined, ...clearedBy(kind), [key]: EMPTY_CODE }),
  };
  return (
    <CodeApplyInput
      id={id}
      field={field}
      invalid={invalidOf(rawErrors) === true}
      required={required}
      describedBy={ariaDescribedByIds(id)}
      onSettle={() => onBlur(id, undefined)}
      onFocus={() => onFocus(id, undefined)}
    />
  );
}

/**
 * The page opens: a draft's code stays as it was left; a stored code shows as applied (looked
 * up again when its kind says so, for what it brings today); on a first visit, the code the
 * landing URL brought is applied once, as if 「適用」 were pressed.
 */
export const codeApplyBehaviour: WidgetBehaviour = {
  open: async (data, { field, options, applicationType, stored }) => {
    const kind = kindOf(options, field);
    const key = pageStateKey(field);
    if (data[key] !== undefined) return { [key]: { ...codeEntryOf(data[key]) } };
    const storedText = data[field] !== undefined && data[field] !== null ? kind.storedText(data) : '';
    if (storedText && !kind.recheckStored) return { [key]: { text: storedText, status: 'verified' } };
    const text = storedText || (stored ? '' : normalizeWorkplaceCode(kind.fromLanding(applicationType) ?? ''));
    if (!text) return null;
    const found = await kind.find(text);
    return { [field]: found?.value, ...found?.brings, [key]: { text, status: found ? 'verified' : 'notFound' } };
  },
  /** A code typed and not applied, or not found, blocks 次へ: apply it or clear it. */
  check: (field, data, options) => {
    const { text, status } = codeEntryOf(data[pageStateKey(field)]);
    if (text.trim() === '' || status === 'verified') return [];
    const notFound = status === 'notFound' ? [{ field, message: kindOf(options, field).notFound }] : [];
    return [...notFound, { field, message: messages.confirmCode }];
  },
};
