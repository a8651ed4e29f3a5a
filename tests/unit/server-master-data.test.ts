import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadMasterData } from '../../src/server/masterdata/load.js';

const banksDir = fileURLToPath(new URL('../../banks/', import.meta.url));

describe('bank master data files', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function copy(): Promise<string> {
    dir = await mkdtemp(path.join(tmpdir(), 'banks-'));
    await cp(banksDir, dir, { recursive: true });
    return dir;
  }

  it('are valid for every bank, with the lists the spec asks for', () => {
    const banks = loadMasterData(banksDir, ['0177', '0587', '0181']);
    for (const bank of banks) {
      expect(bank.branches.length).toBeGreaterThanOrEqual(10);
      expect(bank.occupations.filter((occupation) => occupation.name === 'その他')).toHaveLength(1);
      const lengths = new Set(bank.workplaces.map((workplace) => workplace.code.length));
      expect([...lengths].sort()).toEqual([6, 8]);
      expect(new Set(bank.workplaces.map((workplace) => workplace.multipleAccounts))).toEqual(new Set(['PERMITTED', 'NOT_PERMITTED']));
      expect(bank.invitations.some((invitation) => !invitation.enabled)).toBe(true);
      expect(bank.invitations.some((invitation) => invitation.validUntil !== null)).toBe(true);
    }
  });

  it('name the file and the JSON pointer of a mistake', async () => {
    const copied = await copy();
    await writeFile(
      path.join(copied, '0587', 'workplaces.json'),
      JSON.stringify({ workplaces: [{ id: 1, code: 'ABCDEFG', name: 'テスト', phoneNumber: '092-123-4567', multipleAccounts: 'YES' }] }),
    );
    expect(() => loadMasterData(copied, ['0587'])).toThrow(/0587\/workplaces\.json: \/workplaces\/0\/code must match pattern/);
    expect(() => loadMasterData(copied, ['0587'])).toThrow(/\/workplaces\/0\/multipleAccounts must be equal to one of the allowed values/);
  });

  it('refuse duplicate codes, a missing file and a list without その他', async () => {
    const copied = await copy();
    await writeFile(
      path.join(copied, '0181', 'branches.json'),
      JSON.stringify({ branches: [{ code: '001', name: '本店', address: '長崎県' }, { code: '001', name: '支店', address: '長崎県' }] }),
    );
    await rm(path.join(copied, '0181', 'invitations.json'));
    await writeFile(
      path.join(copied, '0181', 'occupations.json'),
      JSON.stringify({
        occupations: [{ id: 1, name: '会社員', displayNumber: 1, generalDisplay: true, childDisplay: false, minDisplayAge: null, maxDisplayAge: null, workplaceRequired: true }],
      }),
    );
    let message = '';
    try {
      loadMasterData(copied, ['0181']);
    } catch (error) {
      message = error instanceof Error ? error.message : String(error);
    }
    expect(message).toMatch(/branches\.json: code 001 is used twice/);
    expect(message).toMatch(/invitations\.json: missing/);
    expect(message).toMatch(/occupations\.json: \/occupations must contain at least 1 valid item/);
  });
});
