import { readFile, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Database } from '../db/index.js';
import { documents } from '../db/schema.js';

/**
 * Before migration 0012 the uploaded images were files, DATA_DIR/documents/<application id>/
 * <stored_name>. SQL cannot read them, so every server start imports the files of the rows
 * that still name one: the bytes go into `content`, `stored_name` is cleared (one UPDATE per
 * row, only while its content is still null), then the file is removed, and with it the
 * folders left empty. Running it again, or in two processes at once on a shared volume,
 * changes nothing more. A row whose file is not on this machine keeps waiting for the server
 * that has it (several machines without a shared volume); the count is logged.
 */

export interface ImportResult {
  imported: number;
  missing: number;
}

const isMissing = (error: unknown) => (error as { code?: unknown }).code === 'ENOENT';

/** Removes a folder if it is empty; a folder with files left in it stays. */
async function removeIfEmpty(folder: string): Promise<void> {
  await rmdir(folder).catch(() => undefined);
}

export async function importDocumentFiles(db: Database, dataDir: string): Promise<ImportResult> {
  const result: ImportResult = { imported: 0, missing: 0 };
  if (dataDir === ':memory:') return result;
  const root = path.join(dataDir, 'documents');
  const waiting = await db
    .select({ id: documents.id, applicationId: documents.applicationId, storedName: documents.storedName })
    .from(documents)
    .where(and(isNull(documents.content), isNotNull(documents.storedName)));
  for (const row of waiting) {
    // The name was made by the server (hex and an extension); basename keeps a damaged row inside the folder.
    const folder = path.join(root, row.applicationId);
    const file = path.join(folder, path.basename(row.storedName ?? ''));
    let content: Buffer;
    try {
      content = await readFile(file);
    } catch (error) {
      if (!isMissing(error)) throw error;
      result.missing += 1;
      continue;
    }
    await db
      .update(documents)
      .set({ content, storedName: null })
      .where(and(eq(documents.id, row.id), isNull(documents.content)));
    result.imported += 1;
    await unlink(file).catch((error: unknown) => {
      if (!isMissing(error)) throw error;
    });
    await removeIfEmpty(folder);
  }
  await removeIfEmpty(root);
  return result;
}
