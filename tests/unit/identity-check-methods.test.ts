import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BankConfig } from '../../src/domain/bank/types';
import { methodsOfferedAt, windowCovers, type MethodWindow } from '../../src/domain/identity-check-methods';
import { TEST_IDENTITY_CHECK_DAY } from '../support/identity-check-day';

/** The banks' windows (bank.json identityCheckMethods): the photo-ID method and the child's images end with 2027-03-31. */
const windows: MethodWindow[] = [
  { method: 'IMAGE_SELFIE_PHOTO_ID', until: '2027-03-31' },
  { method: 'JPKI_SIGNATURE', from: '2026-12-01' },
  { method: 'CHILD_DOCUMENT_IMAGES', until: '2027-03-31' },
];

describe('methods offered by date, in Japan time', () => {
  it('counts the day in Japan: 2027-03-31T15:00Z is already 2027-04-01 there', () => {
    expect(methodsOfferedAt(windows, new Date('2027-03-31T14:59:59Z'))).toEqual(['IMAGE_SELFIE_PHOTO_ID', 'JPKI_SIGNATURE', 'CHILD_DOCUMENT_IMAGES']);
    expect(methodsOfferedAt(windows, new Date('2027-03-31T15:00:00Z'))).toEqual(['JPKI_SIGNATURE']);
  });

  it('includes both ends of a window and keeps the bank\'s order', () => {
    expect(methodsOfferedAt(windows, new Date('2026-11-30T12:00:00+09:00'))).toEqual(['IMAGE_SELFIE_PHOTO_ID', 'CHILD_DOCUMENT_IMAGES']);
    expect(methodsOfferedAt(windows, new Date('2026-12-01T00:00:00+09:00'))).toEqual(['IMAGE_SELFIE_PHOTO_ID', 'JPKI_SIGNATURE', 'CHILD_DOCUMENT_IMAGES']);
    expect(windowCovers({ method: 'JPKI_SIGNATURE', from: '2027-01-01', until: '2027-01-01' }, '2027-01-01')).toBe(true);
  });

  it('names a method once when two windows of it overlap', () => {
    const twice: MethodWindow[] = [{ method: 'JPKI_SIGNATURE', until: '2027-06-30' }, { method: 'JPKI_SIGNATURE', from: '2027-01-01' }];
    expect(methodsOfferedAt(twice, new Date('2027-03-01T12:00:00+09:00'))).toEqual(['JPKI_SIGNATURE']);
  });

  it('takes a day written YYYY-MM-DD as that day in Japan', () => {
    expect(methodsOfferedAt(windows, '2027-03-31')).toEqual(['IMAGE_SELFIE_PHOTO_ID', 'JPKI_SIGNATURE', 'CHILD_DOCUMENT_IMAGES']);
    expect(methodsOfferedAt(windows, '2027-04-01')).toEqual(['JPKI_SIGNATURE']);
  });
});

describe("the tests' identity-check day", () => {
  const banksDir = new URL('../../banks/', import.meta.url);
  const banks = readdirSync(banksDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => JSON.parse(readFileSync(new URL(`${entry.name}/bank.json`, banksDir), 'utf8')) as BankConfig);

  it('offers every method each bank configures, so the journeys can walk them all (else move TEST_IDENTITY_CHECK_DAY)', () => {
    expect(banks.length).toBeGreaterThan(0);
    for (const bank of banks) {
      const configured = [...new Set(bank.identityCheckMethods.map((window) => window.method))];
      expect({ bank: bank.code, offered: methodsOfferedAt(bank.identityCheckMethods, TEST_IDENTITY_CHECK_DAY) }).toEqual({ bank: bank.code, offered: configured });
    }
  });
});
