import { describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import {
  checkHomePhone,
  checkMobilePhone,
  checkWorkplacePhone,
  joinPhone,
  normalizeDigits,
  splitPhone,
} from '../../src/domain/rules/index.js';

describe('normalizeDigits', () => {
  it.each([
    ['０９０', '090'],
    ['0９0', '090'],
    ['abc', 'abc'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeDigits(input)).toBe(expected);
  });
});

describe('joinPhone', () => {
  it.each([
    [['090', '1234', '5678'], '090-1234-5678'],
    [['０９０', '１２３４', '５６７８'], '090-1234-5678'],
    [[' 092', '123 ', '4567'], '092-123-4567'],
    [['', '', ''], null],
    [['　', ' ', ''], null],
    [['092', '', ''], '092--'],
  ] as const)('%j → %j', (parts, expected) => {
    expect(joinPhone(parts)).toBe(expected);
  });
});

describe('splitPhone', () => {
  it.each([
    ['092-123-4567', ['092', '123', '4567']],
    ['092--', ['092', '', '']],
    [null, ['', '', '']],
    ['', ['', '', '']],
    ['0921234567', null],
    ['092-123-45-67', null],
  ] as const)('%j → %j', (value, expected) => {
    expect(splitPhone(value)).toEqual(expected);
  });
});

describe('checkMobilePhone: required, 0[5789]0-xxxx-xxxx', () => {
  it.each([
    ['090-1234-5678', null],
    ['080-1234-5678', null],
    ['070-1234-5678', null],
    ['050-1234-5678', null],
    ['060-1234-5678', messages.mobilePhone],
    ['091-1234-5678', messages.mobilePhone],
    ['090-123-5678', messages.mobilePhone],
    ['09012345678', messages.mobilePhone],
    ['０９０-1234-5678', messages.mobilePhone],
    ['', messages.mobilePhone],
    [null, messages.mobilePhone],
  ])('%j → %j', (value, expected) => {
    expect(checkMobilePhone(value)).toBe(expected);
  });
});

describe('checkHomePhone: optional, 12-13 characters 0x-x-xxxx', () => {
  it.each([
    [null, null],
    ['', null],
    ['--', null], // three empty inputs
    ['092-12-3456', messages.homePhone], // 11 characters
    ['092-123-4567', null], // 12
    ['0964-12-3456', null], // 12
    ['03-1234-5678', null], // 12
    ['0969-123-4567', null], // 13
    ['09692-12-3456', null], // 13
    ['09692-123-4567', messages.homePhone], // 14
    ['092-1234-56789', messages.homePhone],
    ['92-1234-5678', messages.homePhone],
    ['092--', messages.homePhone], // partly given
    ['092-abc-4567', messages.homePhone],
  ])('%j → %j', (value, expected) => {
    expect(checkHomePhone(value)).toBe(expected);
  });
});

describe('checkWorkplacePhone', () => {
  it.each([
    [null, true, messages.required],
    ['--', true, messages.required],
    [null, false, null],
    ['--', false, null],
    ['092-123-4567', true, null],
    ['0969-123-4567', false, null],
    ['092-12-3456', false, messages.workplacePhone],
    ['09692-123-4567', true, messages.workplacePhone],
    ['-123-4567', false, messages.workplacePhone],
  ])('%j required=%s → %j', (value, required, expected) => {
    expect(checkWorkplacePhone(value, required)).toBe(expected);
  });
});
