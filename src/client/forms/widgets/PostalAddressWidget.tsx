import { useEffect, useId, useRef, useState } from 'react';
import { ariaDescribedByIds, type WidgetProps } from '@rjsf/utils';
import { formatPostalCode, isSearchablePostalCode, normalizePostalCode } from '../../../domain/rules';
import { ADDRESS_PART_FIELDS, candidateAddressParts, type AddressCandidate } from '../../../domain/steps';
import { schemaFormContextOf, type FormData } from '../context';
import { ImeSafeInput } from './ImeSafeInput';
import { invalidOf } from './invalid';

export type { AddressCandidate } from '../../../domain/steps';
export { ADDRESS_PART_FIELDS } from '../../../domain/steps';

/**
 * What the screen lends the widget through formContext: the search itself. It resolves to
 * the candidates, or to null when the server refused the postal code (a 400); any other
 * failure is the screen's to handle (it leaves for the error page) and rejects.
 */
export interface PostalSearchContext {
  searchAddresses: (postalNumber: string) => Promise<AddressCandidate[] | null>;
}

/** The form fields a candidate fills; a part the postal data lacks (no 丁目, say) stays absent. */
export function addressPartsOf(candidate: AddressCandidate): FormData {
  return Object.fromEntries(Object.entries(candidateAddressParts(candidate)).map(([field, value]) => [field, value ?? undefined]));
}

/** Everything the search set, cleared (absent, so that the schema says 住所を検索してください). */
export function clearedAddress(): FormData {
  return Object.fromEntries(['postalNumber', ...ADDRESS_PART_FIELDS].map((field) => [field, undefined]));
}

function isSearchContext(value: unknown): value is PostalSearchContext {
  return typeof value === 'object' && value !== null && typeof (value as PostalSearchContext).searchAddresses === 'function';
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

type SearchState = { kind: 'idle' } | { kind: 'searching' } | { kind: 'none' } | { kind: 'found'; count: number };

/**
 * 郵便番号 with 「住所を検索」: the code is shown NNN-NNNN; the search needs 7 digits; its
 * candidates are offered as radio buttons (a single one is chosen at once) and the chosen
 * address is shown read-only. Choosing sets postalNumber, addressCode and the address parts
 * of the form; editing the code or searching again clears them. The field is postalNumber;
 * the search comes from formContext (PostalSearchContext).
 */
export function PostalAddressWidget({ id, value, onBlur, onFocus, rawErrors, disabled, readonly, registry }: WidgetProps) {
  const context = schemaFormContextOf(registry.formContext);
  const searchContext = isSearchContext(context) ? context : undefined;
  const [typed, setTyped] = useState(() => formatPostalCode(text(value)));
  const [candidates, setCandidates] = useState<AddressCandidate[]>([]);
  const [state, setState] = useState<SearchState>({ kind: 'idle' });
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const statusId = useId();
  const listRef = useRef<HTMLFieldSetElement>(null);
  const digits = normalizePostalCode(typed);
  const searchable = isSearchablePostalCode(digits);
  const busy = state.kind === 'searching';

  const choose = (candidate: AddressCandidate, postalNumber: string) => {
    setSelectedId(String(candidate.id));
    context?.form.patch({ postalNumber, ...addressPartsOf(candidate) });
  };

  const search = async (postalNumber: string, keepChoice: boolean) => {
    if (!searchContext || !isSearchablePostalCode(postalNumber)) return;
    setState({ kind: 'searching' });
    if (!keepChoice) {
      setSelectedId(null);
      context?.form.patch(clearedAddress());
    }
    let found: AddressCandidate[] | null;
    try {
      found = await searchContext.searchAddresses(postalNumber);
    } catch {
      // The screen has left for the error page.
      return;
    }
    const list = found ?? [];
    setCandidates(list);
    setState(list.length === 0 ? { kind: 'none' } : { kind: 'found', count: list.length });
    if (keepChoice) {
      // Back on the page: the stored address is the chosen candidate again.
      const code = text(context?.form.getData().addressCode);
      const stored = list.find((candidate) => candidate.addressCode === code);
      if (stored) setSelectedId(String(stored.id));
      return;
    }
    const only = list.length === 1 ? list[0] : undefined;
    if (only) choose(only, postalNumber);
    else if (list.length > 1) listRef.current?.focus();
  };

  // A stored postal code (reload, or back from the next step): fetch its candidates again.
  useEffect(() => {
    const stored = text(value);
    if (isSearchablePostalCode(stored) && text(context?.form.getData().addressCode) !== '') void search(stored, true);
    // Once, on mount: later searches are the applicant's.
  }, []);

  const onTyped = (next: string) => {
    setTyped(next);
    // A different code than the one searched: the chosen address no longer applies.
    const current = text(context?.form.getData().postalNumber);
    if (current !== '' && normalizePostalCode(next) !== current) {
      setSelectedId(null);
      setCandidates([]);
      setState({ kind: 'idle' });
      context?.form.patch(clearedAddress());
    }
  };

  // The chosen address: the candidate picked, or (before the candidates are back) the stored parts.
  const chosenText = (() => {
    if (text(value) === '') return '';
    const selected = candidates.find((candidate) => String(candidate.id) === selectedId);
    if (selected) return selected.addressFull;
    const stored = context?.form.getData() ?? {};
    if (text(stored.addressCode) === '') return '';
    return [stored.addressPrefecture, stored.addressMunicipality, stored.addressSection, stored.addressChome].map(text).join('');
  })();
  const invalid = invalidOf(rawErrors);

  return (
    <div className="postal-search">
      <div className="postal-search__row">
        <span className="postal-search__mark" aria-hidden="true">
          〒
        </span>
        <ImeSafeInput
          id={id}
          name={id}
          type="text"
          inputMode="numeric"
          autoComplete="postal-code"
          className="input postal-search__input"
          placeholder="例：810-0001"
          maxLength={8}
          value={typed}
          disabled={disabled}
          readOnly={readonly}
          aria-invalid={invalid}
          aria-required="true"
          aria-describedby={`${statusId} ${ariaDescribedByIds(id)}`}
          onFocus={() => onFocus(id, value)}
          onValueChange={onTyped}
          onLeave={(entered, toSubmit, next) => {
            const formatted = formatPostalCode(entered);
            if (formatted !== entered) setTyped(formatted);
            // Leaving for the search button is not leaving the field.
            const toSearch = next instanceof HTMLElement && next.dataset.postalSearch === 'true';
            if (!toSubmit && !toSearch) onBlur(id, value);
          }}
          onKeyDown={(event) => {
            // Enter in the code searches (rather than submitting the whole form).
            if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
              event.preventDefault();
              if (searchable && !busy) void search(digits, false);
            }
          }}
        />
        <button
          type="button"
          className="button button--secondary postal-search__button"
          data-postal-search="true"
          disabled={disabled || readonly || !searchable || busy}
          aria-busy={busy || undefined}
          onClick={() => void search(digits, false)}
        >
          住所を検索
        </button>
      </div>
      <p id={statusId} className="hint postal-search__status" role="status">
        {state.kind === 'searching'
          ? '住所を検索しています…'
          : state.kind === 'none'
            ? '該当する住所が見つかりませんでした。郵便番号をご確認ください。住所が見つからない場合は「該当する住所がない」を選択してください。'
            : state.kind === 'found' && state.count > 1
              ? `${state.count}件の住所が見つかりました。お住まいの住所を選択してください。`
              : searchable
                ? ''
                : '郵便番号（7桁）を入力し、「住所を検索」を押してください。'}
      </p>
      {candidates.length > 0 && (
        <fieldset className="address-candidates" ref={listRef} tabIndex={-1}>
          <legend className="address-candidates__legend">住所の候補</legend>
          {candidates.map((candidate, index) => {
            const inputId = `${id}__candidate-${index}`;
            return (
              <div className="address-candidates__item" key={String(candidate.id)}>
                <input
                  type="radio"
                  id={inputId}
                  name={`${id}__candidate`}
                  className="address-candidates__input"
                  checked={selectedId === String(candidate.id)}
                  disabled={disabled || readonly}
                  onChange={() => choose(candidate, digits)}
                />
                <label htmlFor={inputId} className="address-candidates__label">
                  {candidate.addressFull}
                </label>
              </div>
            );
          })}
        </fieldset>
      )}
      {chosenText !== '' && (
        <div className="address-chosen">
          <span className="address-chosen__label" id={`${id}__address-label`}>
            住所
          </span>
          <output className="address-chosen__text" aria-labelledby={`${id}__address-label`}>
            {chosenText}
          </output>
        </div>
      )}
    </div>
  );
}
