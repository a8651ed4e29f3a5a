import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadBanks, type BankRegistry } from '../../src/server/banks/registry';
import { recordRetentionYearsOf, retentionDaysOf, type BankConfig, type BankLinks } from '../../src/domain/bank/types';

const BANKS_DIR = fileURLToPath(new URL('../../banks', import.meta.url));

const temps: string[] = [];
/** A private copy of banks/ to break or extend without touching the shipped folders. */
async function copyBanks(): Promise<string> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'banks-test-'));
  temps.push(tmp);
  const dir = path.join(tmp, 'banks');
  await cp(BANKS_DIR, dir, { recursive: true });
  return dir;
}

async function editJson(file: string, edit: (json: Record<string, unknown>) => void): Promise<void> {
  const json = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  edit(json);
  await writeFile(file, JSON.stringify(json, null, 2));
}

async function loadError(dir: string): Promise<string> {
  try {
    await loadBanks(dir);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  throw new Error('expected loadBanks to refuse the configuration');
}

afterAll(async () => {
  await Promise.all(temps.map((t) => rm(t, { recursive: true, force: true })));
});

describe('shipped banks', () => {
  let registry: BankRegistry;
  const bank = (code: string): BankConfig => {
    const b = registry.get(code);
    if (!b) throw new Error(`bank ${code} not loaded`);
    return b;
  };

  beforeAll(async () => {
    registry = await loadBanks(BANKS_DIR);
  });

  it('loads exactly the three group banks', () => {
    expect(registry.all().map((b) => b.code).sort()).toEqual(['0177', '0181', '0587']);
    expect(bank('0177').NAME).toBe('福岡銀行');
    expect(bank('0587').NAME).toBe('熊本銀行');
    expect(bank('0181').NAME).toBe('十八親和銀行');
    expect(bank('0177').legalName).toBe('株式会社福岡銀行');
  });

  it.each([
    ['0177', '福岡県', '平日 9:00～17:00', ['山口県', '佐賀県'], true],
    ['0587', '熊本県', '平日 9:00～17:30', ['福岡県', '鹿児島県'], false],
    ['0181', '長崎県', '平日 9:00～17:30', ['福岡県', '佐賀県'], false],
  ])('bank %s matches the spec table', (code, prefecture, hours, neighbours, distance) => {
    const b = bank(code);
    expect(b.DEFAULT_TEMP_ADDRESS_PREFECTURE).toBe(prefecture);
    expect(b.homePrefecture).toBe(prefecture);
    expect(b.CONTACT_INFORMATION.receptionHours).toBe(hours);
    expect(b.CONTACT_INFORMATION.phoneNumber).toMatch(/^0120-\d{3}-\d{3}$/);
    expect(b.neighbouringPrefectures).toEqual(neighbours);
    expect(b.distanceTransactionReasonRequired).toBe(distance);
  });

  it('offers the common purposes, 0177 adds public sports betting just before その他', () => {
    const common = ['LIVING', 'SALARY', 'SAVINGS', 'LOAN', 'INSURANCE', 'FOREX'];
    const values = (code: string) => bank(code).UTILIZATION_PURPOSE_LIST.map((p) => p.value);
    expect(values('0587')).toEqual([...common, 'OTHER']);
    expect(values('0181')).toEqual([...common, 'OTHER']);
    expect(values('0177')).toEqual([...common, 'PUBLIC_SPORTS', 'OTHER']);
    for (const b of registry.all()) {
      const labels = b.UTILIZATION_PURPOSE_LIST.map((p) => p.label);
      expect(labels.at(-1)).toBe('その他');
      expect(labels).toContain('外国為替（海外への送金・海外からの受取）');
    }
    expect(bank('0177').UTILIZATION_PURPOSE_LIST.at(-2)?.label).toBe('公営競技（競馬・競輪など）');
  });

  it('gives 0587 its own cash-card rules and questionnaire, the others share one layout', () => {
    const pathOf = (code: string, key: keyof BankLinks) => new URL(bank(code).links[key]).pathname;
    expect(pathOf('0177', 'cashCardRules')).toBe(pathOf('0181', 'cashCardRules'));
    expect(pathOf('0587', 'cashCardRules')).not.toBe(pathOf('0177', 'cashCardRules'));
    expect(pathOf('0587', 'cashCardRules')).toContain('kumamoto');
    expect(pathOf('0177', 'questionnaire')).toBe(pathOf('0181', 'questionnaire'));
    expect(pathOf('0587', 'questionnaire')).not.toBe(pathOf('0177', 'questionnaire'));
  });

  it('keeps every link on https and every bank on its own domain and mail sender', () => {
    const domains = registry.all().map((b) => b.DOMAIN);
    expect(new Set(domains).size).toBe(domains.length);
    for (const b of registry.all()) {
      const site = b.DOMAIN.replace(/^kouza\./, '');
      expect(b.MAIL_ADDRESS.endsWith(`@${site}`)).toBe(true);
      for (const url of Object.values(b.links)) expect(url).toMatch(/^https:\/\//);
      expect(b.TERM_OF_SERVICE_URL).toMatch(/^https:\/\//);
      expect(b.MYBANK_INTRODUCTION_URL).toMatch(/^https:\/\//);
    }
  });

  it('drops the editor-only $schema key', () => {
    expect(Object.keys(bank('0177'))).not.toContain('$schema');
  });

  it('points imagePath at existing files, with a small hero image', () => {
    for (const b of registry.all()) {
      for (const kind of ['logo', 'top', 'card'] as const) {
        const file = registry.imagePath(b, kind);
        expect(path.isAbsolute(file)).toBe(true);
        expect(existsSync(file)).toBe(true);
      }
      expect(statSync(registry.imagePath(b, 'top')).size).toBeLessThan(6 * 1024);
    }
  });
});

describe('resolveHost', () => {
  let registry: BankRegistry;
  beforeAll(async () => {
    registry = await loadBanks(BANKS_DIR);
  });
  const code = (host: string | undefined, defaultCode: string | null = null) =>
    registry.resolveHost(host, defaultCode)?.code;

  it('selects a bank by the first label of a development host', () => {
    expect(code('0177.localhost')).toBe('0177');
    expect(code('0587.localhost:3000')).toBe('0587');
    expect(code('0181.127.0.0.1.nip.io')).toBe('0181');
    expect(code('0181.127.0.0.1.nip.io:8443')).toBe('0181');
  });

  it('selects a bank by its production DOMAIN, case-insensitively and with a port', () => {
    expect(code('kouza.fukuokabank.co.jp')).toBe('0177');
    expect(code('KOUZA.kumamotobank.co.jp:443')).toBe('0587');
    expect(code('kouza.18shinwabank.co.jp.')).toBe('0181');
  });

  it('sends plain local hosts to the default bank only when one is configured', () => {
    expect(code('localhost', '0587')).toBe('0587');
    expect(code('localhost:3000', '0177')).toBe('0177');
    expect(code('127.0.0.1:3000', '0181')).toBe('0181');
    expect(code('[::1]:3000', '0177')).toBe('0177');
    // A phone on the LAN reaches a developer machine by its IP address.
    expect(code('192.168.1.20:3000', '0587')).toBe('0587');
    expect(code('localhost', null)).toBeUndefined();
    expect(code('localhost', '9999')).toBeUndefined();
  });

  it('never falls back to some bank for an unknown host', () => {
    expect(code('evil.example.com', '0177')).toBeUndefined();
    expect(code('9999.localhost', '0177')).toBeUndefined();
    expect(code('www.fukuokabank.co.jp', '0177')).toBeUndefined();
    expect(code(undefined, '0177')).toBeUndefined();
    expect(code('', '0177')).toBeUndefined();
    expect(code('192.168.1.20.evil.example', '0177')).toBeUndefined();
  });
});

describe('refusing broken configuration', () => {
  it('names the file and JSON pointer of a wrong field type', async () => {
    const dir = await copyBanks();
    await editJson(path.join(dir, '0177', 'bank.json'), (json) => {
      (json.CONTACT_INFORMATION as Record<string, unknown>).phoneNumber = 120177310;
    });
    const message = await loadError(dir);
    expect(message).toMatch(/banks[\\/]0177[\\/]bank\.json: \/CONTACT_INFORMATION\/phoneNumber must be string/);
  });

  it('lists every problem across banks in one error', async () => {
    const dir = await copyBanks();
    await editJson(path.join(dir, '0587', 'bank.json'), (json) => {
      delete (json.links as Record<string, unknown>).cashCardRules;
      json.themeColor = 'red; background: url(x)';
      json.extra = true;
    });
    await editJson(path.join(dir, '0181', 'bank.json'), (json) => {
      json.DEFAULT_TEMP_ADDRESS_PREFECTURE = '長崎';
      (json.links as Record<string, unknown>).homepage = 'not a url';
    });
    const message = await loadError(dir);
    expect(message).toContain('0587/bank.json: /links/cashCardRules is required');
    expect(message).toContain('0587/bank.json: /themeColor must match pattern');
    expect(message).toContain('0587/bank.json: /extra is not allowed');
    expect(message).toContain('0181/bank.json: /DEFAULT_TEMP_ADDRESS_PREFECTURE must be equal to one of the allowed values');
    expect(message).toContain('0181/bank.json: /links/homepage must match format "uri"');
  });

  it('keeps an unfinished application 30 days unless the bank says otherwise, within 1 to 365 whole days', async () => {
    const dir = await copyBanks();
    await editJson(path.join(dir, '0177', 'bank.json'), (json) => {
      json.applicationRetentionDays = 14;
    });
    await editJson(path.join(dir, '0587', 'bank.json'), (json) => {
      delete json.applicationRetentionDays;
    });
    const loaded = await loadBanks(dir);
    expect([retentionDaysOf(loaded.get('0177') ?? {}), retentionDaysOf(loaded.get('0587') ?? {})]).toEqual([14, 30]);
    await editJson(path.join(dir, '0181', 'bank.json'), (json) => {
      json.applicationRetentionDays = 0;
    });
    await editJson(path.join(dir, '0587', 'bank.json'), (json) => {
      json.applicationRetentionDays = '30';
    });
    const message = await loadError(dir);
    expect(message).toContain('0181/bank.json: /applicationRetentionDays must be >= 1');
    expect(message).toContain('0587/bank.json: /applicationRetentionDays must be integer');
  });

  it('keeps verification records 7 years unless the bank says longer, never shorter', async () => {
    const dir = await copyBanks();
    await editJson(path.join(dir, '0177', 'bank.json'), (json) => {
      json.verificationRecordRetentionYears = 10;
    });
    const loaded = await loadBanks(dir);
    expect([recordRetentionYearsOf(loaded.get('0177') ?? {}), recordRetentionYearsOf(loaded.get('0587') ?? {})]).toEqual([10, 7]);
    await editJson(path.join(dir, '0181', 'bank.json'), (json) => {
      json.verificationRecordRetentionYears = 5;
    });
    expect(await loadError(dir)).toContain('0181/bank.json: /verificationRecordRetentionYears must be >= 7');
  });

  it('refuses a code that differs from the folder name', async () => {
    const dir = await copyBanks();
    await editJson(path.join(dir, '0181', 'bank.json'), (json) => {
      json.code = '0182';
    });
    expect(await loadError(dir)).toContain('0181/bank.json: /code "0182" must equal the folder name "0181"');
  });

  it('refuses a missing image file', async () => {
    const dir = await copyBanks();
    await rm(path.join(dir, '0587', 'card.svg'));
    expect(await loadError(dir)).toMatch(/0587\/bank\.json: \/images\/card file not found: .*card\.svg/);
  });

  it('refuses an image name that leaves the bank folder', async () => {
    const dir = await copyBanks();
    await editJson(path.join(dir, '0177', 'bank.json'), (json) => {
      (json.images as Record<string, unknown>).logo = '../0587/logo.svg';
    });
    expect(await loadError(dir)).toContain('0177/bank.json: /images/logo must match pattern');
  });

  it('refuses two banks with the same DOMAIN', async () => {
    const dir = await copyBanks();
    await editJson(path.join(dir, '0587', 'bank.json'), (json) => {
      json.DOMAIN = 'kouza.fukuokabank.co.jp';
    });
    expect(await loadError(dir)).toMatch(/\/DOMAIN "kouza\.fukuokabank\.co\.jp" is already used by bank 0177/);
  });

  it('refuses unparsable JSON', async () => {
    const dir = await copyBanks();
    await writeFile(path.join(dir, '0181', 'bank.json'), '{ "code": ');
    expect(await loadError(dir)).toContain('0181/bank.json: cannot read or parse');
  });
});

describe('resolveHost in production (exactOnly)', () => {
  it('serves a bank only on its DOMAIN and DOMAIN_ALIASES; nothing else gets a bank', async () => {
    const dir = await copyBanks();
    await editJson(path.join(dir, '0587', 'bank.json'), (json) => {
      json.DOMAIN_ALIASES = ['kumamoto-kouza.example.jp'];
    });
    const registry = await loadBanks(dir);
    const code = (host: string) => registry.resolveHost(host, '0177', true)?.code;
    expect(code('kouza.kumamotobank.co.jp')).toBe('0587');
    expect(code('KUMAMOTO-KOUZA.example.jp:443')).toBe('0587');
    for (const host of ['0587.attacker.example', '0587.localhost', 'localhost', '127.0.0.1', 'kouza.kumamotobank.co.jp.attacker.example', 'attacker.kouza.kumamotobank.co.jp']) {
      expect(code(host), host).toBeUndefined();
    }
  });

  it('refuses an alias another bank already uses', async () => {
    const dir = await copyBanks();
    await editJson(path.join(dir, '0587', 'bank.json'), (json) => {
      json.DOMAIN_ALIASES = ['kouza.fukuokabank.co.jp'];
    });
    expect(await loadError(dir)).toContain('0587/bank.json: /DOMAIN_ALIASES/0 "kouza.fukuokabank.co.jp" is already used by bank 0177');
  });
});

describe('adding a bank needs no code change', () => {
  it('loads a fourth bank folder and serves it by host', async () => {
    const dir = await copyBanks();
    const folder = path.join(dir, '0999');
    await cp(path.join(dir, '0181'), folder, { recursive: true });
    await editJson(path.join(folder, 'bank.json'), (json) => {
      json.code = '0999';
      json.NAME = 'テスト銀行';
      json.DOMAIN = 'kouza.test-bank.example.jp';
    });

    const registry = await loadBanks(dir);
    expect(registry.all()).toHaveLength(4);
    const added = registry.resolveHost('0999.localhost', null);
    expect(added?.code).toBe('0999');
    if (!added) throw new Error('bank 0999 not resolved');
    expect(added.NAME).toBe('テスト銀行');
    expect(registry.resolveHost('kouza.test-bank.example.jp', null)?.code).toBe('0999');
    expect(registry.imagePath(added, 'card')).toBe(path.join(folder, 'card.svg'));
    // The existing banks are untouched by the addition.
    expect(registry.resolveHost('0181.localhost', null)?.NAME).toBe('十八親和銀行');
  });

  it('ignores folders whose name is not a bank code', async () => {
    const dir = await copyBanks();
    await cp(path.join(dir, '0181'), path.join(dir, 'drafts'), { recursive: true });
    await editJson(path.join(dir, 'drafts', 'bank.json'), (json) => {
      json.code = 'broken';
    });
    const registry = await loadBanks(dir);
    expect(registry.all()).toHaveLength(3);
  });
});
