import { render, screen } from '@testing-library/react';
import type { WidgetProps } from '@rjsf/utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import bank0587 from '../../banks/0587/bank.json';
import { api, endsSession, setUnauthorizedHandler } from '../../src/client/api/client';
import { widgets } from '../../src/client/forms/widgets';
import { TextareaWidget } from '../../src/client/forms/widgets/TextareaWidget';
import { codeApplyBehaviour } from '../../src/client/forms/widgets/CodeApplyWidget';
import { pageStateKey } from '../../src/client/forms/pageState';
import { Layout } from '../../src/client/ui/Layout';
import { mailDomainOf, toPublicBankConfig, type BankConfig } from '../../src/domain/bank/types';
import { messages } from '../../src/domain/messages';
import { generalFlow, json, settingsFor } from './fixtures';

/** Issue 16: the logic behind the fixes its browser tests (tests/e2e/applicant-defects.spec.ts) cover. */

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('item 2: aria-invalid on every field in error', () => {
  const props = (rawErrors: string[]) =>
    ({ id: 'root_reason', value: '', options: {}, rawErrors, onChange: vi.fn(), onBlur: vi.fn(), onFocus: vi.fn() }) as unknown as WidgetProps;

  it("our textarea replaces rjsf's and says when it is invalid", () => {
    expect(widgets.TextareaWidget).toBe(TextareaWidget);
    const { rerender } = render(<TextareaWidget {...props([])} />);
    expect(screen.getByRole('textbox').getAttribute('aria-invalid')).toBeNull();
    rerender(<TextareaWidget {...props([messages.required])} />);
    expect(screen.getByRole('textbox').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('item 3: any 401 ends the session', () => {
  it('ends it for every call but the code check, whose 401 means a wrong code', () => {
    expect(endsSession(401, '/applications')).toBe(true);
    expect(endsSession(401, '/verification-codes/verify')).toBe(false);
    expect(endsSession(500, '/applications')).toBe(false);
  });

  it('sends a load answered 401 without a token to the session error', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ message: 'unauthorized' }, 401)));
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    await expect(api('/applications')).rejects.toThrow();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    await expect(api('/verification-codes/verify', { method: 'POST', body: {} })).rejects.toThrow();
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });
});

describe('item 4: the sending domain reaches the page, not the address', () => {
  it('derives the domain from MAIL_ADDRESS', () => {
    const bank = bank0587 as BankConfig;
    const shown = toPublicBankConfig(bank);
    expect(mailDomainOf('kouza-web@fukuokabank.co.jp')).toBe('fukuokabank.co.jp');
    expect(shown.mailDomain).toBe(bank.MAIL_ADDRESS.split('@')[1]);
    expect(JSON.stringify(shown)).not.toContain(bank.MAIL_ADDRESS);
  });
});

describe('also seen: a code not found says how to go on', () => {
  it('asks to apply or clear after the not-found message', () => {
    const check = (status: string) => codeApplyBehaviour.check?.('workplaceId', { [pageStateKey('workplaceId')]: { text: 'ZZ9999', status } }, { code: 'workplace' });
    expect(check('notFound')).toEqual([
      { field: 'workplaceId', message: messages.workplaceNotFound },
      { field: 'workplaceId', message: messages.confirmCode },
    ]);
    expect(check('unverified')).toEqual([{ field: 'workplaceId', message: messages.confirmCode }]);
    expect(check('verified')).toEqual([]);
  });
});

describe('item 8: the heading takes the focus after a page change', () => {
  const page = generalFlow.pageByPath.get('/personal');
  if (!page) throw new Error('no /personal');

  it('focuses the h1 when nothing else holds the focus', () => {
    render(
      <Layout settings={settingsFor()} page={page} focusHeading>
        <p>…</p>
      </Layout>,
    );
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
  });

  it('leaves the focus where a screen put it on arrival, and on the first page', () => {
    const { unmount } = render(
      <Layout settings={settingsFor()} page={page} focusHeading>
        <input aria-label="先に" autoFocus />
      </Layout>,
    );
    expect(document.activeElement).toBe(screen.getByLabelText('先に'));
    unmount();
    render(
      <Layout settings={settingsFor()} page={page}>
        <p>…</p>
      </Layout>,
    );
    expect(document.activeElement).toBe(document.body);
  });
});
