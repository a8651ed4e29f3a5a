import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent, type RefObject } from 'react';
import { messages } from '../../domain/messages';
import { pinContextOf, pinRuleErrors, PIN_LENGTH, type PinContext } from '../../domain/rules/pin';
import { normalizeDigits } from '../../domain/rules/phones';
import { loadApplicationWithParent } from '../api/application';
import { api, messageOf, statusOf } from '../api/client';
import { encryptPin } from '../platform/pinCipher';
import type { ScreenProps } from '../runtime/screen';
import { useLoaded } from '../runtime/useLoaded';
import { Button } from '../ui/Button';
import { Modal } from '../ui/Modal';
import { RequirementBadge } from '../ui/RequirementBadge';
import { BackButton } from './stepActions';
import { useFailure } from './useFailure';
import '../styles/ekyc-steps.css';

/** GET /api/public-key. */
export interface PublicKeyAnswer {
  keyCode: string;
  keyId: string;
  binding: string;
}

export const PIN_WARNING = messages.pinWarning;
export const PIN_ALREADY_SET = '暗証番号は設定済みです。このまま本人確認へお進みください。';

interface Cipher {
  code: string;
  keyId: string;
}

type Loaded = { kind: 'ready'; key: PublicKeyAnswer; context: PinContext } | { kind: 'alreadySet' };

const loadKey = () => api<PublicKeyAnswer>('/public-key');

/** The key (with the binding signed for this application) and what the PIN rules read from the application. */
async function loadPage(): Promise<Loaded> {
  try {
    const [key, { application, parent }] = await Promise.all([loadKey(), loadApplicationWithParent()]);
    return { kind: 'ready', key, context: pinContextOf(application, parent) };
  } catch (error) {
    // 409: the PIN of this application is set already (the applicant came back with 「戻る」 of the browser).
    if (statusOf(error) === 409) return { kind: 'alreadySet' };
    throw error;
  }
}

/** Full-width digits typed with an IME become half width; anything else stays for the rules to name. */
const cleanEntry = (value: string) => normalizeDigits(value).slice(0, PIN_LENGTH);

/**
 * /pin (step 6 of 7) and /child/pin (5 of 12): the cash card's 4-digit PIN, twice.
 *
 * - The key (with its one-time binding) and the application are loaded on arrival; the PIN
 *   rules of spec section 5 run against the stored birthday, phones and addresses, through
 *   the server's own context builder (pinContextOf): in the child flow the child's, and the
 *   parent's birthday and phones too.
 * - Errors show when a field is left and stay live from then on; the mismatch only once the
 *   confirmation was touched.
 * - As soon as both entries pass, the PIN is encrypted (pinCipher.ts); 「設定する」 is enabled
 *   only then, and opens the warning that nothing can be corrected afterwards. OK sends the
 *   ciphertext once (a second tap is ignored) and moves on; a 400 shows the server's message
 *   at the field and asks for the PIN again with a fresh key; any other failure: error page.
 * - The PIN never leaves the inputs' state except encrypted, is never logged, and the inputs
 *   are emptied once sent.
 */
export default function Pin({ flow, send }: ScreenProps) {
  const fail = useFailure(flow);
  const child = flow.config.meta.applicationType === 'CHILD';
  const pinId = useId();
  const confirmationId = useId();
  const pinRef = useRef<HTMLInputElement>(null);
  const loaded = useLoaded(loadPage, [], fail);
  /** A fresh key after the server refused a PIN (the first one comes with the page). */
  const [freshKey, setFreshKey] = useState<PublicKeyAnswer | null>(null);
  const [pin, setPin] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [touched, setTouched] = useState({ pin: false, confirmation: false });
  const [serverError, setServerError] = useState<string | null>(null);
  const [warningOpen, setWarningOpen] = useState(false);
  const [sending, setSending] = useState(false);
  const sendingRef = useRef(false);

  const ready = loaded?.kind === 'ready' ? loaded : null;
  const context: PinContext = ready?.context ?? {};
  const pinAloneError = pinRuleErrors(pin, pin, context)[0]?.message;
  const bothError = pinRuleErrors(pin, confirmation, context)[0]?.message;
  const valid = ready !== null && bothError === undefined;

  // Encrypt as soon as both entries pass; any change of the entries or of the key drops the result.
  const key = freshKey ?? ready?.key;
  const cipher = useLoaded(
    async (): Promise<Cipher | null> => (valid && key ? { code: await encryptPin(pin, key.binding, key.keyCode), keyId: key.keyId } : null),
    [valid, pin, key],
    fail,
  );

  useEffect(() => {
    if (serverError) pinRef.current?.focus();
  }, [serverError]);

  if (!loaded) return <p className="loading" role="status">読み込み中です…</p>;

  if (loaded.kind === 'alreadySet') {
    return (
      <section className="stack">
        <p className="alert" role="status">
          {PIN_ALREADY_SET}
        </p>
        <Button onClick={() => send({ type: 'NEXT' })}>本人確認へ進む</Button>
      </section>
    );
  }

  const pinError = serverError ?? (touched.pin ? pinAloneError : undefined);
  // The mismatch belongs to the confirmation, and only once the PIN itself is fine.
  const confirmationError = !serverError && touched.confirmation && pinAloneError === undefined ? bothError : undefined;

  const onEntry = (setter: (value: string) => void) => (event: ChangeEvent<HTMLInputElement>) => {
    setServerError(null);
    setter(cleanEntry(event.target.value));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched({ pin: true, confirmation: true });
    if (valid && cipher) setWarningOpen(true);
  };

  const clearEntries = () => {
    setPin('');
    setConfirmation('');
    setTouched({ pin: false, confirmation: false });
  };

  const confirmAndSend = async () => {
    if (sendingRef.current || !cipher) return;
    sendingRef.current = true;
    setSending(true);
    const body = { code: cipher.code, keyId: cipher.keyId };
    clearEntries();
    try {
      await api('/pin', { method: 'POST', body });
      send({ type: 'NEXT' });
    } catch (error) {
      if (statusOf(error) !== 400) {
        fail(error);
        return;
      }
      // A rule the server knows better, or a key/binding that is no longer valid: a fresh key
      // and binding, and the applicant enters the PIN again.
      try {
        setFreshKey(await loadKey());
      } catch (keyError) {
        fail(keyError);
        return;
      }
      setServerError(messageOf(error) ?? messages.badRequest);
      setWarningOpen(false);
      sendingRef.current = false;
      setSending(false);
    }
  };

  const hintId = `${pinId}__hint`;

  return (
    <section className="stack">
      <p>
        {child ? 'お子さまの口座の' : ''}キャッシュカードの暗証番号（{PIN_LENGTH}桁の数字）を設定してください。
      </p>
      <ul className="bullet-list note" id={hintId}>
        <li>同じ数字4桁（例：1111）は設定できません。</li>
        <li>
          {child ? 'お子さま・親権者さまの' : ''}生年月日・電話番号・ご住所の一部など、他人に推測されやすい番号は設定できません。
        </li>
        <li>暗証番号は他人に知られないよう大切に管理してください。当行の職員がお客さまの暗証番号をお尋ねすることはありません。</li>
      </ul>
      <form className="pin-form" noValidate onSubmit={submit}>
        <PinField
          id={pinId}
          name="pin"
          label="暗証番号"
          inputRef={pinRef}
          value={pin}
          error={pinError}
          describedBy={hintId}
          disabled={sending}
          onChange={onEntry(setPin)}
          onBlur={() => setTouched((t) => ({ ...t, pin: true }))}
        />
        <PinField
          id={confirmationId}
          name="pinConfirmation"
          label="暗証番号（確認用）"
          value={confirmation}
          error={confirmationError}
          disabled={sending}
          onChange={onEntry(setConfirmation)}
          onBlur={() => setTouched((t) => ({ ...t, confirmation: true }))}
        />
        <div className="actions">
          <Button type="submit" disabled={!valid || !cipher} loading={sending}>
            設定する
          </Button>
          <BackButton send={send} disabled={sending} />
        </div>
      </form>
      <Modal
        open={warningOpen}
        title="ご確認ください"
        tone="warning"
        closable={!sending}
        onClose={() => setWarningOpen(false)}
        actions={
          <>
            <Button variant="secondary" disabled={sending} onClick={() => setWarningOpen(false)}>
              キャンセル
            </Button>
            <Button loading={sending} onClick={() => void confirmAndSend()}>
              OK
            </Button>
          </>
        }
      >
        <p>{PIN_WARNING}</p>
      </Modal>
    </section>
  );
}

interface PinFieldProps {
  id: string;
  name: string;
  label: string;
  inputRef?: RefObject<HTMLInputElement | null>;
  value: string;
  error: string | undefined;
  /** Another element that describes the input (the rules above the form). */
  describedBy?: string;
  disabled: boolean;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  onBlur: () => void;
}

/** One 4-digit secret input with its label, required badge and announced error. */
function PinField({ id, name, label, inputRef, value, error, describedBy, disabled, onChange, onBlur }: PinFieldProps) {
  const errorId = `${id}__error`;
  return (
    <div className={`field${error ? ' field--error' : ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
        <RequirementBadge kind="required" />
      </label>
      <input
        ref={inputRef}
        id={id}
        name={name}
        className="input pin-input"
        type="password"
        inputMode="numeric"
        autoComplete="off"
        pattern="[0-9]*"
        maxLength={PIN_LENGTH}
        value={value}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy ? `${describedBy} ${errorId}` : errorId}
        onChange={onChange}
        onBlur={onBlur}
      />
      <div id={errorId} className="field__error" aria-live="polite">
        {error && <p>{error}</p>}
      </div>
    </div>
  );
}
