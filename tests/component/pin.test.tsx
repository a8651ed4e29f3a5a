import { constants, generateKeyPairSync, privateDecrypt, type KeyObject } from 'node:crypto';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import Pin, { PIN_ALREADY_SET, PIN_WARNING } from '../../src/client/screens/Pin';
import { messages } from '../../src/domain/messages';
import { inRouter, json, screenProps, requestOf } from './fixtures';


/**
 * /pin against a fake API tier holding a real RSA key pair: the ciphertext the page posts is
 * decrypted here exactly as the server does (RSA-OAEP, SHA-256).
 */
let privateKey: KeyObject;
let keyCode: string;

beforeAll(() => {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  privateKey = pair.privateKey;
  keyCode = pair.publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
});

const APPLICATION = {
  bankCode: '0177',
  applicationType: 'GENERAL',
  birthday: '1990-05-01',
  mobilePhoneNumber: '090-1234-5678',
  phoneNumber: '092-111-2222',
  workplacePhoneNumber: '092-333-4444',
  address: '福岡県福岡市中央区天神',
  subAddress: '2-13-1',
};

/** The child flow's GET /api/applications: the child, and the parent who applies. */
const CHILD_APPLICATION = { ...APPLICATION, applicationType: 'CHILD', birthday: '2015-04-01', workplacePhoneNumber: null };
const PARENT = { lastName: '福岡', birthday: '1984-09-23', mobilePhoneNumber: '080-2468-9753', phoneNumber: null, workplacePhoneNumber: '092-401-3571' };

interface FakeServer {
  keyRequests: number;
  posts: Array<{ code: string; keyId: string }>;
  answerKey: () => Response;
  answerPin: () => Response | Promise<Response>;
}

function startServer(
  overrides: Partial<Pick<FakeServer, 'answerKey' | 'answerPin'>> = {},
  applications: { application: Record<string, unknown>; applicationParent: Record<string, unknown> | null } = { application: APPLICATION, applicationParent: null },
): FakeServer {
  const server: FakeServer = {
    keyRequests: 0,
    posts: [],
    answerKey: () => json({ keyCode, keyId: '0123456789abcdef', binding: `binding-${server.keyRequests}` }),
    answerPin: () => json({}),
    ...overrides,
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const { route } = requestOf(input, init);
      if (route === 'GET /api/public-key') {
        server.keyRequests += 1;
        return server.answerKey();
      }
      if (route === 'GET /api/applications') return json(applications);
      if (route === 'POST /api/pin') {
        server.posts.push(JSON.parse(String(init?.body)) as { code: string; keyId: string });
        return server.answerPin();
      }
      return json({ message: 'not found' }, 404);
    }),
  );
  return server;
}

function decrypt(code: string): unknown {
  const plain = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(code, 'base64'));
  return JSON.parse(plain.toString('utf8'));
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const pinInput = () => screen.getByLabelText(/^暗証番号必須$/) as HTMLInputElement;
const confirmationInput = () => screen.getByLabelText(/^暗証番号（確認用）/) as HTMLInputElement;
const setButton = () => screen.getByRole('button', { name: '設定する' }) as HTMLButtonElement;

function renderPin() {
  const props = screenProps('/pin');
  render(inRouter('/pin', <Pin {...props} />));
  return props;
}

async function enter(user: ReturnType<typeof userEvent.setup>, pin: string, confirmation: string) {
  await user.clear(pinInput());
  if (pin) await user.type(pinInput(), pin);
  await user.clear(confirmationInput());
  if (confirmation) await user.type(confirmationInput(), confirmation);
  await user.tab();
}

describe('/pin', () => {
  it('has two masked numeric inputs with their labels, and checks the rules of spec section 5 when a field is left', async () => {
    startServer();
    renderPin();
    const user = userEvent.setup();
    await screen.findByLabelText(/^暗証番号必須$/);
    for (const input of [pinInput(), confirmationInput()]) {
      expect(input.type).toBe('password');
      expect(input.inputMode).toBe('numeric');
      expect(input.getAttribute('autocomplete')).toBe('off');
      expect(input.maxLength).toBe(4);
      expect(input.getAttribute('pattern')).toBe('[0-9]*');
    }
    expect(setButton().disabled).toBe(true);

    // Four identical digits.
    await enter(user, '1111', '1111');
    expect(await screen.findByText(messages.pinForbidden)).toBeTruthy();
    expect(pinInput().getAttribute('aria-invalid')).toBe('true');
    expect(setButton().disabled).toBe(true);

    // Part of the birthday (1990-05-01: MMDD).
    await enter(user, '0501', '0501');
    expect(await screen.findByText(messages.pinBirthday)).toBeTruthy();

    // Last digits of the mobile phone, of the address.
    await enter(user, '5678', '5678');
    expect(await screen.findByText(messages.pinPhone)).toBeTruthy();
    await enter(user, '2131', '2131');
    expect(await screen.findByText(messages.pinAddress)).toBeTruthy();

    // Too short: the format message.
    await enter(user, '12', '12');
    expect(await screen.findByText(messages.pinFormat)).toBeTruthy();
  }, 20_000);

  it("refuses in the child flow the child's and the parent's birthday and phones", async () => {
    startServer({}, { application: CHILD_APPLICATION, applicationParent: PARENT });
    render(inRouter('/child/pin', <Pin {...screenProps('/child/pin')} />));
    const user = userEvent.setup();
    await screen.findByLabelText(/^暗証番号必須$/);
    expect(screen.getByText(/お子さま・親権者さまの生年月日/)).toBeTruthy();
    const refused: [string, string][] = [
      ['0401', messages.pinBirthday], // the child: 2015-04-01
      ['5678', messages.pinPhone], // the child's mobile
      ['1984', messages.pinBirthday], // the parent: 1984-09-23
      ['0923', messages.pinBirthday],
      ['5909', messages.pinBirthday], // 昭和59年09月
      ['9753', messages.pinPhone], // the parent's mobile
      ['3571', messages.pinPhone], // the parent's workplace
      ['2131', messages.pinAddress],
    ];
    // The PIN field's own error text (describedby: hint, error), exactly this PIN's message.
    const pinError = () => document.getElementById(pinInput().getAttribute('aria-describedby')?.split(' ')[1] ?? '')?.textContent;
    for (const [pin, message] of refused) {
      await enter(user, pin, pin);
      await waitFor(() => expect(pinError(), pin).toBe(message));
      expect(setButton().disabled).toBe(true);
    }
    await enter(user, '1357', '1357');
    await waitFor(() => expect(setButton().disabled).toBe(false));
  }, 30_000);

  it('puts the mismatch at the confirmation, and enables 設定する once both match and the PIN is encrypted', async () => {
    startServer();
    renderPin();
    const user = userEvent.setup();
    await screen.findByLabelText(/^暗証番号必須$/);
    // A good PIN but a different confirmation: the mismatch, at the confirmation.
    await enter(user, '1357', '1375');
    const mismatch = await screen.findByText(messages.pinMismatch);
    expect(confirmationInput().getAttribute('aria-describedby')).toContain(mismatch.parentElement?.id);
    expect(setButton().disabled).toBe(true);

    await enter(user, '1357', '1357');
    await waitFor(() => expect(setButton().disabled).toBe(false));
    expect(screen.queryByText(messages.pinMismatch)).toBeNull();
  });

  it('shows no error before a field was left', async () => {
    startServer();
    renderPin();
    const user = userEvent.setup();
    await screen.findByLabelText(/^暗証番号必須$/);
    await user.type(pinInput(), '11');
    expect(screen.queryByText(messages.pinFormat)).toBeNull();
    await user.tab();
    expect(await screen.findByText(messages.pinFormat)).toBeTruthy();
  });

  it('does not complain about the confirmation before it was left', async () => {
    startServer();
    renderPin();
    const user = userEvent.setup();
    await screen.findByLabelText(/^暗証番号必須$/);
    await user.type(pinInput(), '1357');
    await user.tab();
    expect(document.activeElement).toBe(confirmationInput());
    expect(screen.queryByText(messages.pinMismatch)).toBeNull();
    expect(screen.queryByText(messages.pinFormat)).toBeNull();
    await user.tab();
    expect(await screen.findByText(messages.pinMismatch)).toBeTruthy();
  });

  it('opens the warning on 設定する; キャンセル closes it without sending; OK sends the encrypted PIN once and moves on', async () => {
    const server = startServer();
    const props = renderPin();
    const user = userEvent.setup();
    await screen.findByLabelText(/^暗証番号必須$/);
    await enter(user, '1357', '1357');
    await waitFor(() => expect(setButton().disabled).toBe(false));

    await user.click(setButton());
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(PIN_WARNING)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'キャンセル' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(server.posts).toEqual([]);
    expect(props.send).not.toHaveBeenCalled();

    await user.click(setButton());
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' }));
    expect(server.posts).toHaveLength(1);
    const [post] = server.posts;
    expect(post?.keyId).toBe('0123456789abcdef');
    expect(decrypt(post?.code ?? '')).toEqual({ pin: '1357', binding: 'binding-1' });
    // Nothing of the PIN stays in the inputs.
    expect(pinInput().value).toBe('');
    expect(confirmationInput().value).toBe('');
  });

  it('sends one POST when OK is tapped twice', async () => {
    let release: (response: Response) => void = () => undefined;
    const server = startServer({ answerPin: () => new Promise<Response>((resolve) => (release = resolve)) });
    const props = renderPin();
    const user = userEvent.setup();
    await screen.findByLabelText(/^暗証番号必須$/);
    await enter(user, '2468', '2468');
    await waitFor(() => expect(setButton().disabled).toBe(false));
    await user.click(setButton());
    const ok = within(await screen.findByRole('dialog')).getByRole('button', { name: 'OK' });
    await user.dblClick(ok);
    await user.click(ok);
    await waitFor(() => expect(server.posts).toHaveLength(1));
    expect((ok as HTMLButtonElement).disabled).toBe(true);
    expect(within(screen.getByRole('dialog')).getByRole('button', { name: 'キャンセル' })).toHaveProperty('disabled', true);
    release(json({}));
    await waitFor(() => expect(props.send).toHaveBeenCalledTimes(1));
    expect(server.posts).toHaveLength(1);
  });

  it('shows a 400 message at the PIN field, with a fresh key for the next try', async () => {
    const server = startServer({ answerPin: () => json({ message: messages.pinPhone, errors: [{ field: 'pin', message: messages.pinPhone }] }, 400) });
    const props = renderPin();
    const user = userEvent.setup();
    await screen.findByLabelText(/^暗証番号必須$/);
    await enter(user, '1357', '1357');
    await waitFor(() => expect(setButton().disabled).toBe(false));
    await user.click(setButton());
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'OK' }));

    const message = await screen.findByText(messages.pinPhone);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(pinInput().getAttribute('aria-describedby')).toContain(message.parentElement?.id);
    expect(pinInput().value).toBe('');
    expect(props.send).not.toHaveBeenCalled();
    expect(server.keyRequests).toBe(2);

    // Typing again clears the message; the next ciphertext uses the new binding.
    await enter(user, '3579', '3579');
    expect(screen.queryByText(messages.pinPhone)).toBeNull();
    server.answerPin = () => json({});
    await waitFor(() => expect(setButton().disabled).toBe(false));
    await user.click(setButton());
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' }));
    expect(decrypt(server.posts[1]?.code ?? '')).toEqual({ pin: '3579', binding: 'binding-2' });
  });

  it('goes to the error page when the PIN call fails otherwise', async () => {
    startServer({ answerPin: () => json({ message: 'boom' }, 500) });
    renderPin();
    const user = userEvent.setup();
    await screen.findByLabelText(/^暗証番号必須$/);
    await enter(user, '1357', '1357');
    await waitFor(() => expect(setButton().disabled).toBe(false));
    await user.click(setButton());
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'OK' }));
    expect((await screen.findByTestId('location')).textContent).toBe('/error');
  });

  it('goes to the error page when the key cannot be loaded', async () => {
    startServer({ answerKey: () => json({ message: 'boom' }, 503) });
    renderPin();
    expect((await screen.findByTestId('location')).textContent).toBe('/error');
  });

  it('says so when the PIN is set already (409), and lets the applicant go on', async () => {
    startServer({ answerKey: () => json({ message: 'set' }, 409) });
    const props = renderPin();
    expect(await screen.findByText(PIN_ALREADY_SET)).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: '本人確認へ進む' }));
    expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' });
  });

  it('goes back to the confirmation with 戻る', async () => {
    startServer();
    const props = renderPin();
    await screen.findByLabelText(/^暗証番号必須$/);
    await userEvent.setup().click(screen.getByRole('button', { name: '戻る' }));
    expect(props.send).toHaveBeenCalledWith({ type: 'BACK' });
  });
});
