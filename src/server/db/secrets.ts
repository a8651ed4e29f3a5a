import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServerConfig, ServerSecrets } from '../config.js';

const newKey = () => randomBytes(32).toString('base64url');

function generate(): ServerSecrets {
  return { hmacPepper: newKey(), ekycCallbackSecret: newKey() };
}

function isSecrets(value: unknown): value is ServerSecrets {
  return (
    typeof value === 'object' &&
    value !== null &&
    'hmacPepper' in value &&
    typeof value.hmacPepper === 'string' &&
    value.hmacPepper.length >= 32
  );
}

/**
 * The secrets (the HMAC pepper, and the eKYC callback key used when EKYC_CALLBACK_SECRET is
 * not set) are generated on first start and kept beside the database in
 * DATA_DIR/secrets.json (mode 600, DATA_DIR is git-ignored). Losing it only invalidates
 * codes that are pending (at most 10 minutes old). With DATA_DIR ':memory:' it lives as long as
 * the process. A config override wins (tests).
 * Several servers sharing one DATABASE_URL must share this file too, or one would not
 * recognise the codes another issued.
 */
export async function loadSecrets(config: ServerConfig): Promise<ServerSecrets> {
  if (config.secrets) return config.secrets;
  if (config.dataDir === ':memory:') return generate();
  const file = path.join(config.dataDir, 'secrets.json');
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (!isSecrets(parsed)) throw new Error(`${file} is not a valid secrets file; move it away to generate a new one`);
    if (typeof parsed.ekycCallbackSecret === 'string' && parsed.ekycCallbackSecret.length >= 32) return parsed;
    // A file from before the eKYC callbacks: add their key, keeping the pepper (and so every
    // pending code). Written aside and renamed, so a reader never sees half a file.
    const upgraded: ServerSecrets = { ...parsed, ekycCallbackSecret: newKey() };
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(upgraded, null, 2)}\n`, { mode: 0o600 });
    await chmod(temporary, 0o600);
    await rename(temporary, file);
    return upgraded;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(config.dataDir, { recursive: true });
  const secrets = generate();
  // 'wx' fails if another process created the file meanwhile: then read theirs.
  try {
    await writeFile(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadSecrets(config);
    throw error;
  }
  // The mode given to writeFile is masked by the umask; make sure it is 600.
  await chmod(file, 0o600);
  return secrets;
}
