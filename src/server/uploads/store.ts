import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { DocumentType } from '../../domain/ekyc.js';
import type { Database } from '../db/index.js';
import { applications, documents } from '../db/schema.js';

/**
 * The uploaded identity documents, kept in the database (table documents, the image in its
 * bytea column `content`, migration 0012, ADR 0025): every server process on one database
 * reads what any of them stored. One document per application and type. The only module that
 * reads or writes the image bytes; the functions take a Database or a transaction alike.
 */

/** A re-encoded image (uploads/image.ts) as it is stored. */
export interface DocumentImage {
  content: Buffer;
  contentType: string;
  width: number;
  height: number;
}

export interface StoredDocument extends DocumentImage {
  id: string;
  type: DocumentType;
  createdAt: Date;
}

/**
 * Stores an application's document of a type, replacing the one stored before, and touches
 * the application's updatedAt. Returns the new document's id (a replaced upload gets a new id).
 */
export async function putDocument(db: Database, applicationId: string, type: DocumentType, image: DocumentImage, now: Date): Promise<string> {
  const id = randomUUID();
  const values = {
    content: image.content,
    storedName: null,
    contentType: image.contentType,
    byteSize: image.content.length,
    width: image.width,
    height: image.height,
    createdAt: now,
  };
  await db.transaction(async (tx) => {
    await tx
      .insert(documents)
      .values({ id, applicationId, type, ...values })
      .onConflictDoUpdate({ target: [documents.applicationId, documents.type], set: { id, ...values } });
    await tx.update(applications).set({ updatedAt: now }).where(eq(applications.id, applicationId));
  });
  return id;
}

/**
 * The document types an application has uploaded. A row whose file is still on disk
 * awaiting its import counts: it was uploaded, and the server that holds the file imports it.
 */
export async function documentTypes(db: Database, applicationId: string): Promise<Set<DocumentType>> {
  const rows = await db.select({ type: documents.type }).from(documents).where(eq(documents.applicationId, applicationId));
  return new Set(rows.map((row) => row.type));
}

/** An application's document of a type with its image, or null when none is stored in the database. */
export async function readDocument(db: Database, applicationId: string, type: DocumentType): Promise<StoredDocument | null> {
  const [row] = await db
    .select({
      id: documents.id,
      type: documents.type,
      content: documents.content,
      contentType: documents.contentType,
      width: documents.width,
      height: documents.height,
      createdAt: documents.createdAt,
    })
    .from(documents)
    .where(and(eq(documents.applicationId, applicationId), eq(documents.type, type), isNotNull(documents.content)))
    .limit(1);
  if (!row?.content) return null;
  return { ...row, content: row.content };
}
