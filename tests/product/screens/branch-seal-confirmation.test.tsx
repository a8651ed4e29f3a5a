import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import Confirmation from '../../../src/client/screens/Confirmation';
import FormStep from '../../../src/client/screens/FormStep';
import branchSchema from '../../../schemas/branch.schema.json';
import personalSchema from '../../../schemas/personal.schema.json';
import workplaceSchema from '../../../schemas/workplace.schema.json';
import type { ClientSettings } from '../../../src/domain/bank/types';
import { describeFlow } from '../../../src/domain/flow/model';
import type { FlowConfig } from '../../../src/domain/flow/types';
import { messages } from '../../../src/domain/messages';
import { spec } from '../spec';
import { OCCUPATIONS, bank0587Settings, expectStepLockAlert, generalFlow, inRouter, json, screenProps, requestOf } from '../../component/fixtures';

/** What the page says when the bank offers no branch: the schema's own text (x-options.empty). */
const NO_BRANCH_TEXT = branchSchema.properties.branchCode['x-options'].empty.message;

/** The server's side of steps 3 to 5: the branch list, the stored application, the two POSTs. */
interface FakeServer {
  application: Record<string, unknown>;
  branches: Array<{ code: string; name: string; address: string }>;
  posted: Array<{ route: string; body: Record<string, unknown> }>;
  answerPost: () => Response;
}

const BRANCHES = [
  { code: '001', name: '本店営業部', address: '福岡県福岡市中央区天神2-13-1' },
  { code: '101', name: '博多駅前支店', address: '福岡県福岡市博多区博多駅前3-2-1' },
];

/**
 * The stored documents of the two generic steps, as the server keeps them: each form's answers
 * (with the branch's label), also merged into `application`.
 */
/** The stored documents behind an application record, as the server keeps them: each form's own fields that have a value. */
function documentOf(form: Record<string, unknown>, application: Record<string, unknown>, extra: readonly string[]): Record<string, unknown> | undefined {
  const names = [...Object.keys((form as { properties: Record<string, unknown> }).properties), ...extra];
  const entries = names.flatMap((name) => (application[name] === null || application[name] === undefined ? [] : [[name, application[name]] as const]));
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function documentsOf(application: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const forms: Record<string, Record<string, unknown>> = {};
  const personal = documentOf(personalSchema, { ...application, utilizationPurpose: application.utilizationPurposeList }, ['address', 'kanaAddress', 'addressPrefecture', 'eraBirthday']);
  if (personal) forms.personal = personal;
  const workplace = documentOf(workplaceSchema, application, ['occupationName', 'workplaceCode', 'multipleAccountsPermitted']);
  if (workplace) forms.workplace = workplace;
  if (typeof application.branchCode === 'string') forms.branch = { branchCode: application.branchCode, branchName: application.branchName };
  if (typeof application.sealLess === 'boolean') forms.sealLess = { sealLess: application.sealLess };
  return forms;
}

/** `forms`: the documents GET /api/applications lists, when not those of `application`'s own fields. */
function startServer(application: Record<string, unknown> = {}, branches = BRANCHES, forms?: Record<string, Record<string, unknown>>): FakeServer {
  const server: FakeServer = { application: { bankCode: '0177', applicationType: 'GENERAL', ...application }, branches, posted: [], answerPost: () => json({}) };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const { route } = requestOf(input, init);
      if (route === 'GET /api/applications') return json({ application: server.application, applicationParent: null, forms: forms ?? documentsOf(server.application) });
      if (route === 'GET /api/branch') return json({ branchList: server.branches });
      if (route === 'GET /api/occupations') return json({ occupationList: OCCUPATIONS });
      if (route === 'POST /api/applications/branch' || route === 'POST /api/applications/seal-less') {
        server.posted.push({ route, body: JSON.parse(String(init?.body)) as Record<string, unknown> });
        return server.answerPost();
      }
      return json({ message: 'not found' }, 404);
    }),
  );
  return server;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const button = (name: string) => screen.getByRole('button', { name });
const findButton = (name: string) => screen.findByRole('button', { name }, { timeout: 5000 });

describe(spec('§2 /branch (step 3 of 7)', 'Choose one branch from radio buttons (name and address); an empty list: an apology and a link'), () => {
  function renderBranch() {
    const props = screenProps('/branch');
    render(inRouter('/branch', <FormStep {...props} />));
    return props;
  }

  it('lists the branches with their address as radio cards, requires one and posts the chosen code', async () => {
    const server = startServer();
    const props = renderBranch();
    const user = userEvent.setup();
    await user.click(await findButton('次へ'));
    const group = screen.getByRole('group', { name: /^お取引店/ });
    expect(await within(group).findByText(messages.selectRequired)).toBeTruthy();
    expect(server.posted).toEqual([]);

    const hakata = within(group).getByRole('radio', { name: /博多駅前支店/ });
    expect(hakata.getAttribute('aria-describedby')).toContain('__description');
    expect(within(group).getByText('福岡県福岡市博多区博多駅前3-2-1')).toBeTruthy();
    await user.click(within(group).getByText('博多駅前支店'));
    expect((hakata as HTMLInputElement).checked).toBe(true);
    await user.click(button('次へ'));
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' }));
    expect(server.posted).toEqual([{ route: 'POST /api/applications/branch', body: { branchCode: '101' } }]);
  });

  it('shows the branch chosen before, and goes back with 戻る', async () => {
    startServer({ branchCode: '001', branchName: '本店営業部' });
    const props = renderBranch();
    await findButton('次へ');
    expect((screen.getByRole('radio', { name: /本店営業部/ }) as HTMLInputElement).checked).toBe(true);
    await userEvent.setup().click(button('戻る'));
    expect(props.send).toHaveBeenCalledWith({ type: 'BACK' });
  });

  it('shows the answers of the stored branch document when the server sends them', async () => {
    startServer({ branchCode: '001' }, BRANCHES, { branch: { branchCode: '101', branchName: '博多駅前支店' } });
    renderBranch();
    await findButton('次へ');
    expect((screen.getByRole('radio', { name: /博多駅前支店/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: /本店営業部/ }) as HTMLInputElement).checked).toBe(false);
  });

  it('does not preselect a branch chosen before that is no longer offered', async () => {
    startServer({ branchCode: '999', branchName: '閉店した支店' });
    renderBranch();
    await findButton('次へ');
    for (const radio of screen.getAllByRole('radio')) expect((radio as HTMLInputElement).checked).toBe(false);
  });

  it('shows the server\'s field error of a 400 at the branch and focuses it', async () => {
    const server = startServer({ branchCode: '001' });
    renderBranch();
    server.answerPost = () => json({ message: '入力内容をご確認ください。', errors: [{ field: 'branchCode', message: messages.selectRequired }] }, 400);
    await userEvent.setup().click(await findButton('次へ'));
    const group = screen.getByRole('group', { name: /^お取引店/ });
    expect(await within(group).findByText(messages.selectRequired)).toBeTruthy();
    expect(document.activeElement).toBe(within(group).getByRole('radio', { name: /本店営業部/ }));
  });

  it('apologises and links to the branch search (visit reservation) when no branch is offered', async () => {
    startServer({}, []);
    renderBranch();
    expect(await screen.findByText(NO_BRANCH_TEXT)).toBeTruthy();
    const link = screen.getByRole('link', { name: /店舗・ATM検索（来店予約）/ });
    expect(link.getAttribute('href')).toBe('https://www.fukuokabank.co.jp/tenpo/raiten_yoyaku/');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(screen.queryByRole('button', { name: '次へ' })).toBeNull();
    expect(button('戻る')).toBeTruthy();
  });

  it('in the child flow, says that without a branch in the home municipality web opening is not available', async () => {
    startServer({ applicationType: 'CHILD' });
    const props = screenProps('/child/branch');
    render(inRouter('/child/branch', <FormStep {...props} />));
    // The child flow's summary follows the branch: the button says so.
    await findButton('入力内容を確認する');
    expect(screen.getByText('お住まいの市区町村に福岡銀行の店舗がない場合は、Webでの口座開設はお申込みいただけません。')).toBeTruthy();
  });

  it('does not show the child note in the general flow', async () => {
    startServer();
    renderBranch();
    await findButton('次へ');
    expect(screen.queryByText(/Webでの口座開設はお申込みいただけません/)).toBeNull();
  });

  it('goes to the error page when the branch list cannot be loaded', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => json({ message: 'error' }, 500)));
    renderBranch();
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/error');
  });
});

describe(spec('§2 /seal-less (step 4 of 7)', "Two choices … Button 'Confirm input'. Back /branch, next /confirmation"), () => {
  function renderSealLess() {
    const props = screenProps('/seal-less');
    render(inRouter('/seal-less', <FormStep {...props} />));
    return props;
  }

  it('offers the two choices, requires one and posts it with 「入力内容を確認する」', async () => {
    const server = startServer();
    const props = renderSealLess();
    const user = userEvent.setup();
    await user.click(await findButton('入力内容を確認する'));
    const group = screen.getByRole('group', { name: /^お届け印の登録/ });
    expect(await within(group).findByText(messages.selectRequired)).toBeTruthy();
    expect(document.activeElement).toBe(within(group).getByRole('radio', { name: '印鑑を登録しない' }));

    await user.click(within(group).getByRole('radio', { name: '印鑑を登録する（お届け印の登録手続きは別途郵送でご案内します）' }));
    await user.click(button('入力内容を確認する'));
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' }));
    expect(server.posted).toEqual([{ route: 'POST /api/applications/seal-less', body: { sealLess: false } }]);
  });

  it('shows the choice made before and sends an error to the error page', async () => {
    const server = startServer({ sealLess: true });
    renderSealLess();
    await findButton('入力内容を確認する');
    expect((screen.getByRole('radio', { name: '印鑑を登録しない' }) as HTMLInputElement).checked).toBe(true);
    server.answerPost = () => json({ message: 'error' }, 500);
    await userEvent.setup().click(button('入力内容を確認する'));
    expect(await screen.findByTestId('location')).toHaveProperty('textContent', '/error');
  });
});

describe(spec('§2 /seal-less (step 4 of 7), /pin', "Button 'Confirm input' … edits are impossible afterwards"), () => {
  it('shows the server\'s message on the page, takes the focus and stays (/seal-less)', async () => {
    const server = startServer({ sealLess: true });
    const props = screenProps('/seal-less');
    render(inRouter('/seal-less', <FormStep {...props} />));
    server.answerPost = () => json({ message: messages.stepsLockedAfterPin }, 409);
    await userEvent.setup().click(await findButton('入力内容を確認する'));
    await expectStepLockAlert(props.send);
  });
});

describe(spec('§2 /seal-less (step 4 of 7)', 'the button names what follows: a step after it is 次へ'), () => {
  it('says 「次へ」 instead of 「入力内容を確認する」 (the flow decides what comes next)', async () => {
    startServer({ sealLess: true });
    const general = JSON.parse(JSON.stringify(generalFlow.config)) as FlowConfig;
    const sealLess = general.states.sealLess as { on: Record<string, string> };
    sealLess.on.NEXT = 'branch';
    render(inRouter('/seal-less', <FormStep {...screenProps('/seal-less', { flow: describeFlow(general) })} />));
    expect(await findButton('次へ')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '入力内容を確認する' })).toBeNull();
  });
});

describe(spec('§2 /confirmation (step 5 of 7)', 'Read-only summary of applicant information, branch and seal choice, with a required checkbox'), () => {
  const APPLICATION = {
    mailAddress: 'hanako@example.jp',
    lastName: '福岡',
    firstName: '花子',
    kanaLastName: 'ﾌｸｵｶ',
    kanaFirstName: 'ﾊﾅｺ',
    gender: 'WOMAN',
    birthday: '1990-04-01',
    eraBirthday: '平成2年4月1日',
    mobilePhoneNumber: '090-1234-5678',
    phoneNumber: null,
    postalNumber: '8100001',
    address: '福岡県福岡市中央区天神',
    subAddress: '2-13-1',
    kanaAddress: 'ﾌｸｵｶｹﾝﾌｸｵｶｼﾁｭｳｵｳｸﾃﾝｼﾞﾝ',
    kanaSubAddress: '2-13-1',
    utilizationPurpose: 'SALARY,OTHER',
    utilizationPurposeList: ['SALARY', 'OTHER'],
    utilizationPurposeOther: '家賃の支払い',
    distanceTransactionReason: null,
    occupationId: 1,
    occupationName: '会社員',
    occupationOther: null,
    workplaceId: 1,
    workplaceCode: 'F10001',
    workplaceName: '株式会社博多ロジテック',
    workplacePhoneNumber: '092-123-4567',
    invitationCode: 'FBK001',
    existedAccountBranchCode: '012',
    existedAccountNumber: '0003456',
    branchCode: '101',
    branchName: '博多駅前支店',
    sealLess: true,
    // What the server derived from the applied workplace (workplaceMaster): it asks the existing account.
    multipleAccountsPermitted: true,
  };

  function renderConfirmation(settings?: ClientSettings) {
    const props = screenProps('/confirmation', settings ? { settings } : {});
    render(inRouter('/confirmation', <Confirmation {...props} />));
    return props;
  }

  /** The summary as term → values, read from the definition lists. */
  function summary(): Record<string, string> {
    const entries: Record<string, string> = {};
    for (const row of document.querySelectorAll('.summary__row')) {
      const term = row.querySelector('dt')?.textContent ?? '';
      entries[term] = [...row.querySelectorAll('dd')].map((dd) => dd.textContent).join(' / ');
    }
    return entries;
  }

  it('summarises every step read-only in definition lists, by section', async () => {
    startServer(APPLICATION);
    renderConfirmation();
    await findButton('申し込む');
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      'お客さま情報',
      'ご職業・お勤め先',
      'お取引店',
      'お届け印',
      'ご住所の確認',
    ]);
    expect(summary()).toEqual({
      メールアドレス: 'hanako@example.jp',
      お名前: '福岡　花子',
      'お名前（フリガナ）': 'ﾌｸｵｶ ﾊﾅｺ',
      生年月日: '1990年4月1日（平成2年）',
      性別: '女性',
      携帯電話番号: '090-1234-5678',
      自宅電話番号: 'なし',
      郵便番号: '810-0001',
      ご住所: '福岡県福岡市中央区天神 / 2-13-1',
      'ご住所（フリガナ）': 'ﾌｸｵｶｹﾝﾌｸｵｶｼﾁｭｳｵｳｸﾃﾝｼﾞﾝ 2-13-1',
      口座のご利用目的: '給与・年金受取 / その他（家賃の支払い）',
      ご職業: '会社員',
      勤務先コード: 'F10001',
      お勤め先名: '株式会社博多ロジテック',
      お勤め先電話番号: '092-123-4567',
      お持ちの口座: '店番 012　口座番号 0003456',
      紹介コード: 'FBK001',
      お取引店: '博多駅前支店（店番 101）',
      お届け印の登録: '印鑑を登録しない',
    });
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: /修正/ })).toBeNull();
  });

  it('shows a temporary address, the other occupation, the distance reason and missing optional items', async () => {
    startServer({
      ...APPLICATION,
      noMatchingAddress: true,
      address: null,
      subAddress: null,
      kanaAddress: null,
      kanaSubAddress: null,
      tempAddressPrefecture: '熊本県',
      tempAddress: '熊本市中央区手取本町1-1',
      kanaTempAddress: 'ｸﾏﾓﾄｼﾁｭｳｵｳｸﾃﾄﾘﾎﾝﾁｮｳ1-1',
      distanceTransactionReason: '勤務先の給与振込口座に指定されているため',
      occupationId: 9,
      occupationName: 'その他',
      occupationOther: '個人事業主',
      workplaceId: null,
      workplaceCode: null,
      workplaceName: null,
      workplacePhoneNumber: null,
      invitationCode: null,
      existedAccountBranchCode: null,
      existedAccountNumber: null,
      phoneNumber: '092-123-4567',
      sealLess: false,
    });
    renderConfirmation();
    await findButton('申し込む');
    const entries = summary();
    expect(entries['ご住所（該当する住所なし）']).toBe('熊本県熊本市中央区手取本町1-1');
    expect(entries['ご住所（フリガナ）']).toBe('ｸﾏﾓﾄｼﾁｭｳｵｳｸﾃﾄﾘﾎﾝﾁｮｳ1-1');
    expect(entries['遠隔地でのお取引の理由']).toBe('勤務先の給与振込口座に指定されているため');
    expect(entries['ご職業']).toBe('その他（個人事業主）');
    expect(entries['お勤め先名']).toBe('未入力');
    expect(entries['勤務先コード']).toBe('未入力');
    expect(entries['お持ちの口座']).toBeUndefined();
    expect(entries['自宅電話番号']).toBe('092-123-4567');
    expect(entries['お届け印の登録']).toBe('印鑑を登録する（お届け印の登録手続きは別途郵送でご案内します）');
  });

  it('reads the generic steps from their stored documents, in the order of the flow’s pages', async () => {
    startServer({ ...APPLICATION, branchCode: null, branchName: null, sealLess: null }, BRANCHES, {
      branch: { branchCode: '001', branchName: '本店営業部' },
      sealLess: { sealLess: false },
    });
    // A product owner's edit: the seal before the branch (the states in that order, as swap.ts writes them).
    const general = JSON.parse(JSON.stringify(generalFlow.config)) as FlowConfig;
    const { branch, sealLess, ...others } = general.states;
    const reordered: FlowConfig = { ...general, states: {} };
    for (const [id, state] of Object.entries(others)) {
      if (id === 'confirmation' && sealLess && branch) Object.assign(reordered.states, { sealLess, branch });
      reordered.states[id] = state;
    }
    render(inRouter('/confirmation', <Confirmation {...screenProps('/confirmation', { flow: describeFlow(reordered) })} />));
    await findButton('申し込む');
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      'お客さま情報',
      'ご職業・お勤め先',
      'お届け印',
      'お取引店',
      'ご住所の確認',
    ]);
    expect(summary()).toMatchObject({
      お取引店: '本店営業部（店番 001）',
      お届け印の登録: '印鑑を登録する（お届け印の登録手続きは別途郵送でご案内します）',
    });
  });

  it('says 未入力 for a generic step not stored', async () => {
    startServer({ ...APPLICATION, branchCode: null, branchName: null, sealLess: null });
    renderConfirmation();
    await findButton('申し込む');
    expect(summary()).toMatchObject({ お取引店: '未入力', お届け印の登録: '未入力' });
  });

  it('labels the purposes from the bank’s own list', async () => {
    startServer({ ...APPLICATION, utilizationPurposeList: ['LIVING', 'FOREX'], utilizationPurpose: 'LIVING,FOREX' });
    renderConfirmation(bank0587Settings());
    await findButton('申し込む');
    expect(summary()['口座のご利用目的']).toBe('生計費決済 / 外国為替（海外への送金・海外からの受取）');
  });

  it('requires the address check before 申し込む, then moves on; 戻る goes back', async () => {
    startServer(APPLICATION);
    const props = renderConfirmation();
    const user = userEvent.setup();
    await user.click(await findButton('申し込む'));
    const checkbox = screen.getByRole('checkbox', { name: /^ご住所が本人確認書類の住所と一致していることを確認しました/ });
    expect(await within(checkbox.closest('.field') as HTMLElement).findByText(messages.selectRequired)).toBeTruthy();
    expect(document.activeElement).toBe(checkbox);
    expect(props.send).not.toHaveBeenCalled();

    await user.click(checkbox);
    await user.click(button('申し込む'));
    await waitFor(() => expect(props.send).toHaveBeenCalledWith({ type: 'NEXT' }));
    await user.click(button('戻る'));
    expect(props.send).toHaveBeenCalledWith({ type: 'BACK' });
  });

  const PARENT = {
    lastName: '福岡',
    firstName: '太郎',
    kanaLastName: 'ﾌｸｵｶ',
    kanaFirstName: 'ﾀﾛｳ',
    birthday: '1985-06-15',
    relationship: 'FATHER',
    mobilePhoneNumber: '080-1111-2222',
    phoneNumber: null,
    proxyApplicationReason: 'MINOR',
    occupationName: 'その他',
    occupationOther: '個人事業主',
    workplaceName: '福岡商店',
    workplacePhoneNumber: '092-765-4321',
  };

  /** The child flow: GET /api/applications answers with the parent too. */
  function startChildServer(parent: Record<string, unknown>) {
    const server = startServer({ ...APPLICATION, applicationType: 'CHILD', birthday: '2012-05-05' });
    const inner = globalThis.fetch;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        if (requestOf(input, init).route === 'GET /api/applications') {
          return json({ application: server.application, applicationParent: parent, forms: documentsOf(server.application) });
        }
        return inner(input, init);
      }),
    );
    return server;
  }

  function renderChildConfirmation() {
    const props = screenProps('/child/confirmation');
    render(inRouter('/child/confirmation', <Confirmation {...props} />));
    return props;
  }

  /** The rows of one section as term → values. */
  function sectionRows(title: string): Record<string, string> {
    const section = screen.getByRole('heading', { level: 2, name: title }).closest('section') as HTMLElement;
    const entries: Record<string, string> = {};
    for (const row of section.querySelectorAll('.summary__row')) {
      const term = row.querySelector('dt')?.textContent ?? '';
      entries[term] = [...row.querySelectorAll('dd')].map((dd) => dd.textContent).join(' / ');
    }
    return entries;
  }

  it('in the child flow, titles the first section お子さまの情報 and lists the parent (父) after it', async () => {
    startChildServer(PARENT);
    renderChildConfirmation();
    await findButton('申し込む');
    // The child flow asks no seal choice (no sealLess form in flows/child.json): no お届け印 section.
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      'お子さまの情報',
      '親権者さまの情報',
      'お取引店',
      'ご住所の確認',
    ]);
    expect(sectionRows('お子さまの情報')['生年月日']).toBe('2012年5月5日（平成24年）');
    // A child has no workplace: the occupation and the invitation code close the child's section.
    expect(sectionRows('お子さまの情報')).toMatchObject({ ご職業: '会社員', 紹介コード: 'FBK001' });
    expect(sectionRows('親権者さまの情報')).toEqual({
      お名前: '福岡　太郎',
      'お名前（フリガナ）': 'ﾌｸｵｶ ﾀﾛｳ',
      続柄: '父',
      生年月日: '1985年6月15日（昭和60年）',
      携帯電話番号: '080-1111-2222',
      自宅電話番号: 'なし',
      代理申込の理由: 'お子さまが未成年のため',
      ご職業: 'その他（個人事業主）',
      お勤め先名: '福岡商店',
      お勤め先電話番号: '092-765-4321',
    });
  });

  it('shows a mother as 母 with her home phone', async () => {
    startChildServer({ ...PARENT, firstName: '花子', relationship: 'MOTHER', phoneNumber: '092-111-2222', occupationName: '会社員', occupationOther: null });
    renderChildConfirmation();
    await findButton('申し込む');
    const rows = sectionRows('親権者さまの情報');
    expect(rows['続柄']).toBe('母');
    expect(rows['自宅電話番号']).toBe('092-111-2222');
    expect(rows['ご職業']).toBe('会社員');
  });
});
