import { describe, expect, it } from 'vitest';
import type { Occupation } from '../../src/domain/masterdata.js';
import { isOccupationOffered, offeredOccupations } from '../../src/domain/rules/index.js';

const occupation = (id: number, name: string, extra: Partial<Occupation> = {}): Occupation => ({
  id,
  name,
  displayNumber: id,
  generalDisplay: true,
  childDisplay: false,
  minDisplayAge: null,
  maxDisplayAge: null,
  workplaceRequired: false,
  ...extra,
});

const list = [
  occupation(1, 'その他', { childDisplay: true }),
  occupation(2, '会社員', { displayNumber: 30 }),
  occupation(3, '学生', { childDisplay: true, minDisplayAge: 6, displayNumber: 20 }),
  occupation(4, '未就学児', { generalDisplay: false, childDisplay: true, maxDisplayAge: 5, displayNumber: 10 }),
];

describe('occupation offering (one rule for the page and the server)', () => {
  it('offers an adult the generalDisplay ones, by display number, その他 last', () => {
    expect(offeredOccupations(list, { kind: 'adult' }).map((o) => o.name)).toEqual(['学生', '会社員', 'その他']);
  });

  it.each([
    [3, ['未就学児', 'その他']],
    [5, ['未就学児', 'その他']],
    [6, ['学生', 'その他']],
    [17, ['学生', 'その他']],
    [null, ['未就学児', '学生', 'その他']],
  ] as const)('offers a child aged %s the childDisplay ones whose bounds contain the age', (age, names) => {
    expect(offeredOccupations(list, { kind: 'child', age }).map((o) => o.name)).toEqual(names);
  });

  it('never offers a child an occupation without childDisplay', () => {
    expect(isOccupationOffered(occupation(9, '会社員'), { kind: 'child', age: null })).toBe(false);
  });
});
