import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { createHasher } from '../../src/server/crypto.js';
import { loadSecrets } from '../../src/server/db/secrets.js';

describe('secrets', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('are generated once into DATA_DIR/secrets.json with mode 600, then reused', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'kouza-secrets-'));
    const config = { ...loadConfig({}), dataDir: dir };
    const first = await loadSecrets(config);
    const file = path.join(dir, 'secrets.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(first);
    expect(Buffer.from(first.hmacPepper, 'base64url')).toHaveLength(32);
    expect(await loadSecrets(config)).toEqual(first);
  });

  it('come from the config when given (tests)', async () => {
    const secrets = { hmacPepper: 'x'.repeat(43) };
    expect(await loadSecrets({ ...loadConfig({}), dataDir: '/nonexistent', secrets })).toBe(secrets);
  });
});

describe('hasher', () => {
  const hasher = createHasher(Buffer.alloc(32, 1).toString('base64url'));

  it('keys a mail address regardless of case', () => {
    expect(hasher.mail('Taro@Example.COM')).toBe(hasher.mail('taro@example.com'));
    expect(hasher.mail('taro@example.com')).not.toBe(hasher.mail('jiro@example.com'));
  });

  it('binds a code hash to its row', () => {
    expect(hasher.code('row-a', '123456')).not.toBe(hasher.code('row-b', '123456'));
    expect(hasher.equal(hasher.code('row-a', '123456'), hasher.code('row-a', '123456'))).toBe(true);
    expect(hasher.equal(hasher.code('row-a', '123456'), hasher.code('row-a', '123457'))).toBe(false);
  });

  it('keys a rate-limit counter apart from a mail address', () => {
    expect(hasher.rateLimitKey('10.0.0.1')).toMatch(/^[0-9a-f]{64}$/);
    expect(hasher.rateLimitKey('taro@example.com')).not.toBe(hasher.mail('taro@example.com'));
  });

  it('depends on the pepper', () => {
    const other = createHasher(Buffer.alloc(32, 2).toString('base64url'));
    expect(other.mail('taro@example.com')).not.toBe(hasher.mail('taro@example.com'));
  });
});
