import { constants, createHash, createPrivateKey, createPublicKey, generateKeyPair, privateDecrypt, type KeyObject } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ServerConfig } from '../config.js';

/**
 * The RSA key pairs with which browsers encrypt the cash-card PIN (GET /api/public-key,
 * POST /api/pin).
 *
 * - keyId: the first 16 hex digits of the SHA-256 of the public key (SPKI DER), so the same
 *   key has the same id on every server that holds it and an id can be checked against its key.
 * - keyCode: the public key as SPKI DER in base64 without PEM armour: Web Crypto imports it with
 *   importKey('spki', …) after base64 decoding, jsencrypt's setPublicKey takes it as it is.
 * - Storage: DATA_DIR/keys/<UTC yyyyMMddTHHmmssZ>_<keyId>.pem, PKCS#8 PEM, mode 600 in a
 *   mode-700 folder, generated (3072 bits) on the first start. The newest file (the names sort
 *   by creation) is the current key; older files stay and keep decrypting what was made with
 *   them. Rotation: rotatePinKey(dataDir) (or any PKCS#8 PEM file dropped in with a newer
 *   name), then restart. DATA_DIR is git-ignored; the keys must never be committed.
 * - PIN_KEY_FILE: a key given from outside (e.g. one the bank's core system holds too) is the
 *   current key; DATA_DIR/keys is still read for older keys.
 * - DATA_DIR ':memory:' (tests): a 2048-bit pair generated for the process's lifetime.
 */

const generateRsa = promisify(generateKeyPair);

export const GENERATED_MODULUS_BITS = 3072;
export const MINIMUM_MODULUS_BITS = 2048;
const IN_MEMORY_MODULUS_BITS = 2048;

export interface PinKey {
  keyId: string;
  /** SPKI DER, base64 (no PEM armour). */
  keyCode: string;
  privateKey: KeyObject;
}

export function keyIdOf(publicKeyDer: Buffer): string {
  return createHash('sha256').update(publicKeyDer).digest('hex').slice(0, 16);
}

/** A PinKey from a private key, refusing anything but RSA of 2048 bits or more. */
export function toPinKey(privateKey: KeyObject, source: string): PinKey {
  const bits = privateKey.asymmetricKeyDetails?.modulusLength ?? 0;
  if (privateKey.asymmetricKeyType !== 'rsa' || bits < MINIMUM_MODULUS_BITS) {
    throw new Error(`${source}: the PIN key must be an RSA private key of at least ${MINIMUM_MODULUS_BITS} bits`);
  }
  const der = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  return { keyId: keyIdOf(der), keyCode: der.toString('base64'), privateKey };
}

async function newKey(bits: number): Promise<KeyObject> {
  const { privateKey } = await generateRsa('rsa', { modulusLength: bits, publicExponent: 0x10001 });
  return privateKey;
}

function keysDir(dataDir: string): string {
  return path.join(dataDir, 'keys');
}

const keyFileName = /^\d{8}T\d{6}Z_[0-9a-f]{16}\.pem$/;

/** The key files of DATA_DIR/keys, oldest first. */
async function keyFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => keyFileName.test(name)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function readKeyFile(file: string): Promise<PinKey> {
  return toPinKey(createPrivateKey(await readFile(file, 'utf8')), file);
}

/** Generates a new key pair into DATA_DIR/keys; it becomes the current key at the next start. */
export async function rotatePinKey(dataDir: string, now: Date = new Date()): Promise<PinKey> {
  const dir = keysDir(dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const key = toPinKey(await newKey(GENERATED_MODULUS_BITS), 'generated key');
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  const file = path.join(dir, `${stamp}_${key.keyId}.pem`);
  const pem = key.privateKey.export({ type: 'pkcs8', format: 'pem' });
  // 'wx': never overwrite a key something may still be encrypted with.
  await writeFile(file, pem, { mode: 0o600, flag: 'wx' });
  await chmod(file, 0o600);
  return key;
}

export class PinKeyStore {
  private readonly keys = new Map<string, PinKey>();

  constructor(
    readonly current: PinKey,
    others: PinKey[],
    /** DATA_DIR/keys to look in again for an unknown id (another server's newer key); null in memory. */
    private readonly dir: string | null,
  ) {
    for (const key of [...others, current]) this.keys.set(key.keyId, key);
  }

  /** The key of an id, re-reading DATA_DIR/keys once when it is unknown. */
  async get(keyId: string): Promise<PinKey | undefined> {
    const known = this.keys.get(keyId);
    if (known || this.dir === null || !/^[0-9a-f]{16}$/.test(keyId)) return known;
    for (const name of await keyFiles(this.dir)) {
      if (!name.endsWith(`_${keyId}.pem`)) continue;
      const key = await readKeyFile(path.join(this.dir, name));
      this.keys.set(key.keyId, key);
    }
    return this.keys.get(keyId);
  }

  /**
   * RSA-OAEP with SHA-256 (and MGF1-SHA-256, as Web Crypto does) under the key of `keyId`.
   * Null for an unknown key or a ciphertext that does not decode, which includes every
   * PKCS#1 v1.5 ciphertext: the reason is not told apart (no padding oracle).
   */
  async decrypt(keyId: string, ciphertext: Buffer): Promise<Buffer | null> {
    const key = await this.get(keyId);
    if (!key) return null;
    try {
      return privateDecrypt({ key: key.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, ciphertext);
    } catch {
      return null;
    }
  }
}

/**
 * Whether loadPinKeys() will first generate a key (seconds of CPU for 3072 bits): no
 * PIN_KEY_FILE, and DATA_DIR ':memory:' or no key in DATA_DIR/keys yet.
 */
export async function pinKeyToGenerate(config: Pick<ServerConfig, 'dataDir' | 'pinKeyFile'>): Promise<boolean> {
  if (config.pinKeyFile) return false;
  return config.dataDir === ':memory:' || (await keyFiles(keysDir(config.dataDir))).length === 0;
}

/** The keys of the configuration (see the file comment). */
export async function loadPinKeys(config: Pick<ServerConfig, 'dataDir' | 'pinKeyFile'>): Promise<PinKeyStore> {
  const fromFile = config.pinKeyFile ? await readKeyFile(config.pinKeyFile) : null;
  if (config.dataDir === ':memory:') {
    return new PinKeyStore(fromFile ?? toPinKey(await newKey(IN_MEMORY_MODULUS_BITS), 'generated key'), [], null);
  }
  const dir = keysDir(config.dataDir);
  let names = await keyFiles(dir);
  if (!fromFile && names.length === 0) {
    await rotatePinKey(config.dataDir);
    names = await keyFiles(dir);
  }
  const stored = await Promise.all(names.map((name) => readKeyFile(path.join(dir, name))));
  const current = fromFile ?? stored[stored.length - 1];
  if (!current) throw new Error(`no PIN key in ${dir}`);
  return new PinKeyStore(current, stored, dir);
}
