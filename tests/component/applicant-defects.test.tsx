import { render, screen } from '@testing-library/react';
import type { WidgetProps } from '@rjsf/utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import bank0587 from '../../banks/0587/bank.json';
import { api, endsSession, setUnauthorizedHandler } from '../../src/client/api/client';
import { widgets } from '../../src/client/forms/widgets';
import { TextareaWidget } from '../../src/client/forms/widgets/TextareaWidget';
import { askedFormsOf, summaryOf } from '../../src/client/screens/confirmation/summary';
import type { FormSchema } from '../../src/domain/schemas/form-step';
import branchSchema from '../../schemas/branch.schema.json';
import parentSchema from '../../schemas/parent.schema.json';
import parentWorkplaceSchema from '../../schemas/parent-workplace.schema.json';
import personalSchema from '../../schemas/personal.schema.json';
import sealLessSchema from '../../schemas/sealLess.schema.json';
import workplaceSchema from '../../schemas/workplace.schema.json';
import { codeApplyBehaviour } from '../../src/client/forms/widgets/CodeApplyWidget';
import { pageStateKey } from '../../src/client/forms/pageState';
import { Layout } from '../../src/client/ui/Layout';
import { mailDomainOf, toPublicBankConfig, type BankConfig } from '../../src/domain/bank/types';
import { messages } from '../../src/domain/messages';
import { childFlow, generalFlow, json, settingsFor } from './fixtures';

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

describe('item 5: the summary lists only what the flow asked', () => {
  const application = { sealLess: null, branchName: '本店', branchCode: '001' };
  const schemas = new Map<string, FormSchema>([
    ['personal', personalSchema as FormSchema],
    ['workplace', workplaceSchema as FormSchema],
    ['branch', branchSchema],
    ['sealLess', sealLessSchema],
    ['parent', parentSchema as FormSchema],
    ['parent-workplace', parentWorkplaceSchema as FormSchema],
  ]);
  const titles = (flow: typeof generalFlow, parent: Record<string, unknown> | null) =>
    summaryOf(application, settingsFor().bank, parent, askedFormsOf(flow.pages), schemas).map((section) => section.title);

  it('has no seal in the child flow, which never asks it', () => {
    expect(titles(childFlow, { relationship: 'FATHER' })).toEqual(['お子さまの情報', '親権者さまの情報', 'お取引店']);
    expect(titles(generalFlow, null)).toEqual(['お客さま情報', 'ご職業・お勤め先', 'お取引店', 'お届け印']);
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

describe('the workplace section, from its schema’s summary rows', () => {
  const schemas = new Map<string, FormSchema>([['workplace', workplaceSchema as FormSchema]]);
  const sectionsOf = (application: Record<string, unknown>) => summaryOf(application, settingsFor().bank, null, new Set(['workplace']), schemas);

  it('lists an applied workplace and the existing account, each number after its title', () => {
    const [section] = sectionsOf({
      applicationType: 'GENERAL',
      occupationName: 'その他',
      occupationOther: '家業',
      workplaceCode: 'AB1234',
      workplaceName: '株式会社テスト',
      workplacePhoneNumber: '092-123-4567',
      existedAccountBranchCode: '001',
      existedAccountNumber: '0000001',
      invitationCode: null,
    });
    expect(section?.title).toBe('ご職業・お勤め先');
    expect(section?.items.map((entry) => `${entry.term}: ${entry.lines.join('/')}`)).toEqual([
      'ご職業: その他（家業）',
      '勤務先コード: AB1234',
      'お勤め先名: 株式会社テスト',
      'お勤め先電話番号: 092-123-4567',
      'お持ちの口座: 店番 001　口座番号 0000001',
      '紹介コード: 未入力',
    ]);
  });

  it('leaves the existing account out when there is none, and the whole section out for a child (the personal section shows the child’s)', () => {
    const [section] = sectionsOf({ applicationType: 'GENERAL', occupationName: '学生' });
    expect(section?.items.map((entry) => entry.term)).not.toContain('お持ちの口座');
    expect(sectionsOf({ applicationType: 'CHILD', occupationName: '高校生', invitationCode: 'FBK001' })).toEqual([]);
  });
});
