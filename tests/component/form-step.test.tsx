import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RJSFSchema } from '@rjsf/utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import FormStep from '../../src/client/screens/FormStep';
import { messages } from '../../src/domain/messages';
import { inRouter, json, requestOf, screenProps } from './fixtures';

/**
 * The generic form step with a form that is neither the branch nor the seal: a schema a product
 * owner could write (a select, a text checked by a named rule, yes/no cards), given to the page
 * in place of schemas/<form>.schema.json (no file is added to schemas/). Its validator is
 * compiled here with the build's ajv configuration; the page itself never compiles one.
 */
const { CONTACT_FORM, contactSchema } = vi.hoisted(() => {
  const CONTACT_FORM = 'contactPreference';
  const required = '入力が必須です。';
  const selectRequired = '選択が必須です。';

  const contactSchema: RJSFSchema = {
    title: 'ご連絡方法',
    type: 'object',
    required: ['contactTime', 'mobilePhoneNumber', 'newsletter'],
    properties: {
      contactTime: {
        type: 'string',
        title: 'ご連絡の希望時間帯',
        oneOf: [
          { const: 'MORNING', title: '午前（9時～12時）' },
          { const: 'AFTERNOON', title: '午後（13時～17時）' },
        ],
      },
      mobilePhoneNumber: { type: 'string', title: '携帯電話番号', maxLength: 20 },
      newsletter: {
        type: 'boolean',
        title: 'お知らせメールの受け取り',
        oneOf: [
          { const: true, title: '受け取る' },
          { const: false, title: '受け取らない' },
        ],
      },
    },
    errorMessage: {
      required: { contactTime: selectRequired, mobilePhoneNumber: required, newsletter: selectRequired },
    },
    'x-step': {
      post: '/applications/contact-preference',
      rules: ['mobilePhone'],
      intro: 'お申込み内容についてご連絡する場合の方法をお選びください。',
      note: '{bankName}の担当者からご連絡することがあります。',
    },
    'x-flows': { child: { 'x-step': { note: 'お子さまの口座についてのご連絡です。' } } },
    'x-ui': {
      'ui:order': ['newsletter', '*'],
      newsletter: { 'ui:widget': 'RadioCardsWidget', 'ui:options': { group: true, columns: 1 } },
    },
  };
  return { CONTACT_FORM, contactSchema };
});

vi.mock('../../src/client/forms/schemas', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/client/forms/schemas')>();
  const { customizeValidator } = await import('@rjsf/validator-ajv8');
  const { ajvOptions, extendAjv } = await import('../../src/domain/schemas/ajv-setup');
  const validator = customizeValidator<Record<string, unknown>>({ ajvOptionsOverrides: ajvOptions, extenderFn: extendAjv });
  const loaded: import('../../src/client/forms/schemas').LoadedSchema = { schema: contactSchema, validator };
  return { ...real, loadSchema: (name: string) => (name === CONTACT_FORM ? Promise.resolve(loaded) : real.loadSchema(name)) };
});

function startServer(forms?: Record<string, Record<string, unknown>>) {
  const posted: Array<{ route: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const { route } = requestOf(input, init);
      if (route === 'GET /api/applications') return json({ application: { bankCode: '0177', applicationType: 'GENERAL' }, applicationParent: null, forms });
      if (route === 'POST /api/applications/contact-preference') {
        posted.push({ route, body: JSON.parse(String(init?.body)) });
        return json({});
      }
      return json({ message: 'not found' }, 404);
    }),
  );
  return posted;
}

/** A page of the general flow (its next page is /seal-less, not the summary) asking the contact form. */
function renderContact() {
  const props = screenProps('/branch');
  const page = { ...props.page, form: CONTACT_FORM, forms: [CONTACT_FORM] };
  render(inRouter('/branch', <FormStep {...props} page={page} />));
  return props;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the generic form step with a form of its schema alone', () => {
  it('says what x-step says, labels from the titles, in the order of x-ui', async () => {
    startServer();
    renderContact();
    await screen.findByRole('button', { name: '次へ' }, { timeout: 5000 });
    expect(screen.getByText('お申込み内容についてご連絡する場合の方法をお選びください。')).toBeTruthy();
    expect(screen.getByText('福岡銀行の担当者からご連絡することがあります。')).toBeTruthy();
    expect(screen.queryByText('お子さまの口座についてのご連絡です。')).toBeNull();

    const select = screen.getByLabelText(/^ご連絡の希望時間帯/);
    expect([...(select as HTMLSelectElement).options].map((option) => option.textContent)).toEqual(expect.arrayContaining(['午前（9時～12時）', '午後（13時～17時）']));
    const cards = screen.getByRole('group', { name: /^お知らせメールの受け取り/ });
    expect(within(cards).getAllByRole('radio').map((radio) => (radio as HTMLInputElement).labels?.[0]?.textContent)).toEqual(['受け取る', '受け取らない']);
    // ui:order ['newsletter', '*']: the cards come first.
    expect(cards.compareDocumentPosition(select) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('requires the fields, runs the named rule, and posts the answers normalised to x-step.post', async () => {
    const posted = startServer();
    const props = renderContact();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: '次へ' }, { timeout: 5000 }));
    expect(await screen.findAllByText(messages.selectRequired)).toHaveLength(2);
    // The schema's own options are drawn by our select: required and invalid are announced.
    const select = screen.getByLabelText(/^ご連絡の希望時間帯/);
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(select.getAttribute('aria-required')).toBe('true');
    expect((select as HTMLSelectElement).options[0]?.textContent).toBe('選択してください');
    // The first field in error, in the page's order, has the focus.
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: '受け取る' }));

    await user.click(screen.getByText('受け取らない'));
    await user.selectOptions(screen.getByLabelText(/^ご連絡の希望時間帯/), '午後（13時～17時）');
    const phone = screen.getByLabelText(/^携帯電話番号/);
    await user.type(phone, '03-1234-5678');
    await user.click(screen.getByRole('button', { name: '次へ' }));
    expect(await screen.findByText(messages.mobilePhone)).toBeTruthy();
    expect(posted).toEqual([]);

    await user.clear(phone);
    await user.type(phone, ' 090-1234-5678 ');
    await user.click(screen.getByRole('button', { name: '次へ' }));
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' }));
    expect(posted).toEqual([
      { route: 'POST /api/applications/contact-preference', body: { contactTime: 'AFTERNOON', mobilePhoneNumber: '090-1234-5678', newsletter: false } },
    ]);
  });

  it('shows the stored answers of its own document again', async () => {
    startServer({ [CONTACT_FORM]: { contactTime: 'MORNING', mobilePhoneNumber: '080-1111-2222', newsletter: true } });
    renderContact();
    await screen.findByRole('button', { name: '次へ' }, { timeout: 5000 });
    expect((screen.getByLabelText(/^ご連絡の希望時間帯/) as HTMLSelectElement).selectedOptions[0]?.textContent).toBe('午前（9時～12時）');
    expect((screen.getByLabelText(/^携帯電話番号/) as HTMLInputElement).value).toBe('080-1111-2222');
    expect((screen.getByRole('radio', { name: '受け取る' }) as HTMLInputElement).checked).toBe(true);
  });
});
