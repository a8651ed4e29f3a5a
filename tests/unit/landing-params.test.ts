// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyLandingParams, parseLandingParams } from '../../src/client/platform/landingParams';
import { cookies } from '../../src/client/platform/session';

const DEVICE_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('parseLandingParams', () => {
  it('reads every parameter within its limit', () => {
    expect(
      parseLandingParams(`?channel=${'c'.repeat(20)}&deviceId=${DEVICE_ID}&workplace=12345678&invitation=ABC123`),
    ).toEqual({ channel: 'c'.repeat(20), deviceId: DEVICE_ID, workplace: '12345678', invitation: 'ABC123' });
  });

  it('accepts a query string without the leading question mark', () => {
    expect(parseLandingParams('channel=app')).toEqual({ channel: 'app' });
  });

  it('returns nothing for an empty query', () => {
    expect(parseLandingParams('')).toEqual({});
  });

  it.each([
    ['channel over 20 characters', `channel=${'c'.repeat(21)}`],
    ['empty channel', 'channel='],
    ['workplace over 8 characters', 'workplace=123456789'],
    ['invitation over 6 characters', 'invitation=1234567'],
    ['empty invitation', 'invitation='],
    ['deviceId without hyphens', 'deviceId=0f8fad5bd9cb469fa16570867728950e'],
    ['deviceId with a non-hex character', 'deviceId=0f8fad5b-d9cb-469f-a165-70867728950g'],
    ['deviceId of 37 characters', `deviceId=${DEVICE_ID}0`],
    ['deviceId with the hyphens misplaced', 'deviceId=0f8fad5bd-9cb-469f-a165-70867728950e'],
  ])('drops %s', (_name, query) => {
    expect(parseLandingParams(`?${query}`)).toEqual({});
  });

  it('counts characters, not UTF-16 units', () => {
    const twenty = '𠮷'.repeat(20); // 40 UTF-16 units, 20 characters
    expect(parseLandingParams(`?channel=${encodeURIComponent(twenty)}`)).toEqual({ channel: twenty });
  });

  it('keeps the valid parameters when others are dropped', () => {
    expect(parseLandingParams(`?channel=${'c'.repeat(21)}&workplace=ABCDEF`)).toEqual({ workplace: 'ABCDEF' });
  });

  it('accepts an upper-case device id', () => {
    expect(parseLandingParams(`?deviceId=${DEVICE_ID.toUpperCase()}`)).toEqual({ deviceId: DEVICE_ID.toUpperCase() });
  });
});

describe('applyLandingParams', () => {
  const clearCookies = () => {
    cookies.remove('workplace');
    cookies.remove('invitation');
  };
  beforeEach(() => {
    sessionStorage.clear();
    clearCookies();
  });
  afterEach(clearCookies);

  it('keeps channel and device id in session storage and the codes in cookies', () => {
    applyLandingParams({ channel: 'line', deviceId: DEVICE_ID, workplace: '12345678', invitation: 'ABC123' });
    expect(sessionStorage.getItem('channel')).toBe('line');
    expect(sessionStorage.getItem('appDeviceId')).toBe(DEVICE_ID);
    expect(cookies.get('workplace')).toBe('12345678');
    expect(cookies.get('invitation')).toBe('ABC123');
  });

  it('writes the cookies for 7 days', () => {
    const written: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
    Object.defineProperty(document, 'cookie', {
      configurable: true,
      get: () => descriptor?.get?.call(document) as string,
      set: (value: string) => {
        written.push(value);
        descriptor?.set?.call(document, value);
      },
    });
    try {
      applyLandingParams({ workplace: '123456', invitation: 'XYZ789' });
    } finally {
      delete (document as { cookie?: string }).cookie;
    }
    expect(written).toHaveLength(2);
    for (const cookie of written) expect(cookie).toContain(`Max-Age=${7 * 24 * 60 * 60}`);
  });

  it('leaves earlier values alone when a parameter is absent', () => {
    cookies.set('workplace', 'OLD001');
    applyLandingParams({ channel: 'web' });
    expect(cookies.get('workplace')).toBe('OLD001');
    expect(sessionStorage.getItem('appDeviceId')).toBeNull();
  });

  it('stores nothing for an empty set', () => {
    applyLandingParams({});
    expect(sessionStorage.length).toBe(0);
    expect(cookies.get('workplace')).toBeNull();
    expect(cookies.get('invitation')).toBeNull();
  });
});
