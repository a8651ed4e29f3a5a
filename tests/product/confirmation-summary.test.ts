import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import bank0177 from '../../banks/0177/bank.json';
import child from '../../flows/child.json';
import general from '../../flows/general.json';
import { summaryOf, type SummaryInput } from '../../src/client/screens/confirmation/summary';
import { toPublicBankConfig, type BankConfig } from '../../src/domain/bank/types';
import { describeFlow } from '../../src/domain/flow/model';
import type { FlowConfig } from '../../src/domain/flow/types';
import type { FormSchema } from '../../src/domain/forms/format';
import { spec } from './spec';

/** The shipped confirmation pages' sections and rows (spec section 2, /confirmation and /child/confirmation). */

const schemaOf = (form: string) => JSON.parse(readFileSync(new URL(`../../schemas/${form}.schema.json`, import.meta.url), 'utf8')) as FormSchema;
const schemas = new Map(['personal', 'workplace', 'branch', 'sealLess', 'parent', 'parent-workplace'].map((form) => [form, schemaOf(form)] as const));
const bank = toPublicBankConfig(bank0177 as BankConfig);

function input(flowId: string, application: Record<string, unknown>, forms: SummaryInput['forms'] = {}, parent: Record<string, unknown> | null = null): SummaryInput {
  return { flowId, applicationType: flowId === 'child' ? 'CHILD' : 'GENERAL', bank, application, entities: { applicationParent: parent }, forms, choices: new Map() };
}

describe('the sections of the confirmation page', () => {
  const application = { sealLess: null, branchName: '本店', branchCode: '001' };
  const titles = (config: unknown, flowId: string, parent: Record<string, unknown> | null) =>
    summaryOf(describeFlow(config as FlowConfig).pages, schemas, input(flowId, application, {}, parent)).map((section) => section.title);

  it(spec('§2 /confirmation (step 5 of 7)', 'Read-only summary of applicant information, branch and seal choice'), () => {
    expect(titles(general, 'general', null)).toEqual(['お客さま情報', 'ご職業・お勤め先', 'お取引店', 'お届け印']);
  });

  it(spec('§2 Child screens', '/child/confirmation: sections for child information and parent information'), () => {
    expect(titles(child, 'child', { relationship: 'FATHER' })).toEqual(['お子さまの情報', '親権者さまの情報', 'お取引店']);
  });
});

describe('the workplace section', () => {
  const rows = (flowId: string, answers: Record<string, unknown>) => {
    const pages = flowId === 'child' ? [{ forms: ['personal', 'workplace'] }] : [{ forms: ['workplace'] }];
    return summaryOf(pages, schemas, input(flowId, { applicationType: flowId === 'child' ? 'CHILD' : 'GENERAL', ...answers }, { workplace: answers })).flatMap((section) =>
      section.items.map((entry) => `${entry.term}: ${entry.lines.join('/')}`),
    );
  };

  it(spec('§2 /workplace', 'occupation, workplace code, name and phone, the existing account (only if the workplace permits multiple accounts), the invitation code'), () => {
    expect(
      rows('general', {
        occupationId: 9,
        occupationName: 'その他',
        occupationOther: '家業',
        workplaceId: 3,
        workplaceCode: 'AB1234',
        workplaceName: '株式会社テスト',
        workplacePhoneNumber: '092-123-4567',
        multipleAccountsPermitted: true,
        existedAccountBranchCode: '001',
        existedAccountNumber: '0000001',
      }),
    ).toEqual(['ご職業: その他（家業）', '勤務先コード: AB1234', 'お勤め先名: 株式会社テスト', 'お勤め先電話番号: 092-123-4567', 'お持ちの口座: 店番 001　口座番号 0000001', '紹介コード: 未入力']);
    expect(rows('general', { occupationId: 6, occupationName: '学生' })).not.toContain('お持ちの口座: 未入力');
  });

  it(spec('§2 Child screens', '/child/personal: the child\'s occupation (a system need) and invitation code, no workplace'), () => {
    // One section for the page: the child's data, then the occupation and the code; no workplace.
    const shown = rows('child', { occupationId: 6, occupationName: '高校生', invitationCode: 'FBK001' });
    expect(shown.slice(-2)).toEqual(['ご職業: 高校生', '紹介コード: FBK001']);
    expect(shown.filter((row) => /勤務先|お勤め先|お持ちの口座/.test(row))).toEqual([]);
  });
});
