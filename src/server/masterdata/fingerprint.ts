/**
 * What a bank's master-data rows are made from, as one SHA-256: its four files, the schema
 * they are checked against and SEED_FORMAT. A start compares it with the one stored at the
 * last seed (migration 0016) and skips an unchanged bank (masterdata/seed.ts).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MASTER_DATA_FILES, SCHEMA_FILE } from './load.js';

/**
 * Raise it with any change to how files become rows (load.ts's checks, seed.ts's mapping, the
 * tables' columns): the files then hash differently and every bank is seeded again once.
 */
export const SEED_FORMAT = 1;

/** The bytes of a file, or a marker for a missing one (the load then reports it). */
async function contentsOf(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.from('\0missing\0');
    throw error;
  }
}

export async function fingerprintOf(banksDir: string, bankCode: string): Promise<string> {
  const hash = createHash('sha256').update(`seed format ${SEED_FORMAT}\0`);
  const files = [join(banksDir, SCHEMA_FILE), ...Object.keys(MASTER_DATA_FILES).map((name) => join(banksDir, bankCode, name))];
  for (const file of files) {
    const contents = await contentsOf(file);
    // Name and length first, so moving bytes from one file to the next changes the hash.
    hash.update(`${file.slice(banksDir.length)}\0${contents.length}\0`).update(contents);
  }
  return hash.digest('hex');
}
