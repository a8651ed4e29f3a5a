import { describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { workplaceRuleErrors, type RuleBody } from '../../src/domain/rules/index.js';

/** The workplace rule's function (src/domain/rules/forms.ts): what a schema cannot say of a workplace. */
describe('workplaceRuleErrors', () => {
  it.each<[string, RuleBody, { field: string; message: string }[]]>([
    ['a workplace', { workplaceName: '㈱ふくおか', workplacePhoneNumber: '092-123-4567' }, []],
    // Whether a workplace is required is the form's condition (x-required-when), not the rule's.
    ['no workplace', { workplaceName: null, workplacePhoneNumber: '--' }, []],
    [
      'student with a partial phone',
      { workplacePhoneNumber: '092--' },
      [{ field: 'workplacePhoneNumber', message: messages.workplacePhone }],
    ],
    [
      'forbidden symbol',
      { workplaceName: '＜ふくおか＞' },
      [{ field: 'workplaceName', message: '＜＞は使用できません。' }],
    ],
    ['existing account given', { existedAccountBranchCode: '012', existedAccountNumber: '0003456' }, []],
    [
      'existing account without number',
      { existedAccountBranchCode: '012', existedAccountNumber: null },
      [{ field: 'existedAccountNumber', message: messages.existingAccount }],
    ],
    [
      'existing account without branch',
      { existedAccountBranchCode: '', existedAccountNumber: '1234567' },
      [{ field: 'existedAccountBranchCode', message: messages.existingAccount }],
    ],
  ])('%s', (_case, body, expected) => {
    expect(workplaceRuleErrors(body)).toEqual(expected);
  });
});

