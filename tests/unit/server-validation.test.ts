import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { resolveSchemaMessages } from '../../src/domain/schemas/messages.js';
import { check } from '../../src/server/validation.js';
import { normalizeVerificationCode } from '../../src/domain/rules/verification-code.js';

function errorMessages(file: string): string[] {
  const found: string[] = [];
  const walk = (node: unknown, inMessage: boolean) => {
    if (typeof node === 'string' && inMessage) found.push(node);
    if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) walk(value, inMessage || key === 'errorMessage');
    }
  };
  walk(resolveSchemaMessages(JSON.parse(readFileSync(new URL(`../../schemas/${file}`, import.meta.url), 'utf8'))), false);
  return found;
}

describe('shared schemas', () => {
  it('name the texts of src/domain/messages.ts by key', () => {
    expect(new Set(errorMessages('mail-address.schema.json'))).toEqual(new Set([messages.mailAddress]));
    expect(new Set(errorMessages('verification-code.schema.json'))).toEqual(new Set([messages.verificationFailed]));
  });

  it.each([
    ['taro@example.com', true],
    ['taro.yamada+kouza@mail.example.co.jp', true],
    ['taro@example', false],
    ['taro@@example.com', false],
    ['太郎@example.com', false],
    [' taro@example.com', false],
    ['', false],
    [`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.jp`, true],
    [`${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(59)}.jp`, false],
  ])('mail address %j valid: %s', (mailAddress, valid) => {
    const failure = check('mail-address.schema.json', { mailAddress });
    if (valid) expect(failure).toBeNull();
    else expect(failure).toEqual({ message: messages.mailAddress, errors: [{ field: 'mailAddress', message: messages.mailAddress }] });
  });

  it('reports a missing address and a non-object body with the mail message', () => {
    expect(check('mail-address.schema.json', {})?.message).toBe(messages.mailAddress);
    expect(check('mail-address.schema.json', 'taro@example.com')?.message).toBe(messages.mailAddress);
    expect(check('mail-address.schema.json', { mailAddress: 42 })?.message).toBe(messages.mailAddress);
  });

  it('accepts a normalised 6-digit code only', () => {
    expect(check('verification-code.schema.json', { verificationCode: normalizeVerificationCode(' １２３\u3000456 ') })).toBeNull();
    for (const typed of ['', '  ', '12345', '1234567', '12a456', '１２３４５']) {
      expect(check('verification-code.schema.json', { verificationCode: normalizeVerificationCode(typed) })?.message).toBe(
        messages.verificationFailed,
      );
    }
  });
});
