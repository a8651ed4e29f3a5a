import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/domain/messages.js';
import { pgliteMigrationTarget } from '../../src/server/db/index.js';
import { migrate, readMigrations } from '../../src/server/db/migrate.js';
import { documents } from '../../src/server/db/schema.js';
import { httpMessages } from '../../src/server/http-messages.js';
import { readDocument } from '../../src/server/uploads/store.js';
import {
  confirmedApplication,
  headersOf,
  jpeg,
  multipartBody,
  png,
  upload,
  uploadOk,
  verifiedApplication,
} from './application-fixtures.js';
import { backends, captureLog, startTestServer, type TestServer } from './helpers.js';

describe.each(backends)('document upload ($name)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('stores a child document in the database and answers 201 { id, type }', async () => {
    const who = await confirmedApplication(server, '0587', 'CHILD');
    const response = await upload(server, who, 'INDIVIDUAL_NUMBER_CARD', png(1920, 1080), '../../etc/passwd.png');
    expect(response.statusCode).toBe(201);
    const body = response.json<{ id: string; type: string }>();
    expect(body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), type: 'INDIVIDUAL_NUMBER_CARD' });
    const [row] = await server.app.db.select().from(documents).where(eq(documents.applicationId, who.id));
    expect(row).toMatchObject({ id: body.id, type: 'INDIVIDUAL_NUMBER_CARD', contentType: 'image/png', width: 1920, height: 1080 });
    expect(row?.storedName).toBeNull();
    expect(row?.byteSize).toBe(row?.content?.length);
    // What is stored is a re-encoded copy of the pixels: a PNG of the same size.
    const stored = await readDocument(server.app.db, who.id, 'INDIVIDUAL_NUMBER_CARD');
    expect(stored?.id).toBe(body.id);
    expect(await sharp(stored?.content).metadata()).toMatchObject({ format: 'png', width: 1920, height: 1080 });
  });

  it('accepts JPEG, and replaces a type uploaded again', async () => {
    const who = await confirmedApplication(server, '0177', 'CHILD');
    const first = await uploadOk(server, who, 'CERTIFICATE_RESIDENCE', await jpeg(1080, 1920));
    const second = await upload(server, who, 'CERTIFICATE_RESIDENCE', await jpeg(1000, 1400), 'retake.jpg', 'image/jpeg');
    expect(second.statusCode).toBe(201);
    const rows = await server.app.db.select().from(documents).where(eq(documents.applicationId, who.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: second.json<{ id: string }>().id, contentType: 'image/jpeg', width: 1000, height: 1400 });
    expect(rows[0]?.id).not.toBe(first.id);
  });

  it('refuses a text file named .jpg, whatever type it claims (400)', async () => {
    const who = await confirmedApplication(server, '0177', 'CHILD');
    const text = Buffer.from('これは画像ではありません。\n'.repeat(100));
    const response = await upload(server, who, 'INDIVIDUAL_NUMBER_CARD', text, 'card.jpg', 'image/jpeg');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: httpMessages.documentType });
    // Nor a GIF, a real image of a type the page never sends.
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([0x20, 0x03, 0x20, 0x03, 0, 0, 0]), randomBytes(64)]);
    expect((await upload(server, who, 'INDIVIDUAL_NUMBER_CARD', gif, 'card.gif', 'image/gif')).statusCode).toBe(400);
    expect(await server.app.db.select().from(documents).where(eq(documents.applicationId, who.id))).toEqual([]);
  });

  it('answers 413 with a Japanese message for a 2 MB file', async () => {
    const who = await confirmedApplication(server, '0177', 'CHILD');
    const big = png(1400, 1400, true);
    expect(big.length).toBeGreaterThan(1_900_000);
    const response = await upload(server, who, 'INDIVIDUAL_NUMBER_CARD', big);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: httpMessages.documentTooLarge });
    // 1,048,576 bytes exactly is still fine.
    const limit = png(1000, 1000);
    const padded = Buffer.concat([limit, Buffer.alloc(1_048_576 - limit.length)]);
    expect(padded.length).toBe(1_048_576);
    expect((await upload(server, who, 'INDIVIDUAL_NUMBER_CARD', padded)).statusCode).toBe(201);
  });

  it.each([
    ['too small', 150, 800],
    ['too large', 5000, 1000],
  ])('refuses a picture %s (400)', async (_label, width, height) => {
    const who = await confirmedApplication(server, '0177', 'CHILD');
    const response = await upload(server, who, 'MATERNITY_HANDBOOK', png(width, height));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: httpMessages.documentDimensions });
  });

  it('refuses an unknown type, a type of the other flow, a missing file, and non-multipart bodies (400)', async () => {
    const child = await confirmedApplication(server, '0177', 'CHILD');
    const general = await confirmedApplication(server);
    expect((await upload(server, child, 'PASSPORT')).statusCode).toBe(400);
    expect((await upload(server, child, 'CURRENT_ADDRESS_DOCUMENT')).statusCode).toBe(400);
    expect((await upload(server, general, 'INDIVIDUAL_NUMBER_CARD')).statusCode).toBe(400);
    const noFile = multipartBody({ type: 'INDIVIDUAL_NUMBER_CARD' });
    const missing = await server.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { ...headersOf(server, child), 'content-type': noFile.contentType },
      payload: noFile.payload,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ message: messages.badRequest });
    const json = await server.app.inject({ method: 'POST', url: '/api/documents', headers: headersOf(server, child), payload: { type: 'INDIVIDUAL_NUMBER_CARD' } });
    expect([400, 415]).toContain(json.statusCode);
    const anonymous = await server.app.inject({ method: 'POST', url: '/api/documents', headers: { host: headersOf(server, child).host }, payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });

  it('keeps each child document as its own row, tied to its application and its type', async () => {
    const who = await confirmedApplication(server, '0181', 'CHILD');
    const other = await confirmedApplication(server, '0181', 'CHILD');
    const uploaded: Record<string, string> = {};
    for (const type of ['INDIVIDUAL_NUMBER_CARD', 'CERTIFICATE_RESIDENCE', 'MATERNITY_HANDBOOK']) {
      const response = await upload(server, who, type, png(900, 1200));
      expect(response.statusCode, type).toBe(201);
      const body = response.json<{ id: string; type: string }>();
      expect(body.type).toBe(type);
      uploaded[type] = body.id;
    }
    // Another application's card is its own row: it replaces nothing of the first one.
    const otherCard = await uploadOk(server, other, 'INDIVIDUAL_NUMBER_CARD', await jpeg(1000, 700));

    const rowsOf = async (applicationId: string) =>
      (await server.app.db.select({ id: documents.id, type: documents.type }).from(documents).where(eq(documents.applicationId, applicationId)))
        .map(({ id, type }) => ({ id, type }))
        .sort((a, b) => a.type.localeCompare(b.type));
    expect(await rowsOf(who.id)).toEqual([
      { id: uploaded.CERTIFICATE_RESIDENCE, type: 'CERTIFICATE_RESIDENCE' },
      { id: uploaded.INDIVIDUAL_NUMBER_CARD, type: 'INDIVIDUAL_NUMBER_CARD' },
      { id: uploaded.MATERNITY_HANDBOOK, type: 'MATERNITY_HANDBOOK' },
    ]);
    expect(await rowsOf(other.id)).toEqual([{ id: otherCard.id, type: 'INDIVIDUAL_NUMBER_CARD' }]);
  });

  it.each(['INDIVIDUAL_NUMBER_CARD', 'CERTIFICATE_RESIDENCE', 'MATERNITY_HANDBOOK'])(
    'refuses the child document %s for a general application (400) and stores nothing',
    async (type) => {
      const general = await confirmedApplication(server, '0587');
      const response = await upload(server, general, type);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: messages.badRequest });
      expect(await server.app.db.select().from(documents).where(eq(documents.applicationId, general.id))).toEqual([]);
    },
  );

  it.each([['PASSPORT'], ['individual_number_card'], [''], ['INDIVIDUAL_NUMBER_CARD ']])(
    'refuses the unknown type %j (400) and stores nothing',
    async (type) => {
      const child = await confirmedApplication(server, '0177', 'CHILD');
      const response = await upload(server, child, type);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: messages.badRequest });
      expect(await server.app.db.select().from(documents).where(eq(documents.applicationId, child.id))).toEqual([]);
    },
  );

  it('refuses an image without its type (400)', async () => {
    const child = await confirmedApplication(server, '0177', 'CHILD');
    const body = multipartBody({}, { filename: 'card.png', contentType: 'image/png', data: png(800, 600) });
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { ...headersOf(server, child), 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: messages.badRequest });
  });

  it('refuses a JPEG cut after its header, and stores nothing', async () => {
    const child = await confirmedApplication(server, '0177', 'CHILD');
    const whole = await jpeg(1200, 900);
    for (const cut of [whole.subarray(0, 700), whole.subarray(0, Math.floor(whole.length / 2))]) {
      const response = await upload(server, child, 'INDIVIDUAL_NUMBER_CARD', cut, 'card.jpg', 'image/jpeg');
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(/画像/);
    }
    expect(await server.app.db.select().from(documents).where(eq(documents.applicationId, child.id))).toEqual([]);
  });

  it('stores only the pixels of a JPEG+HTML or PNG+ZIP polyglot', async () => {
    const child = await confirmedApplication(server, '0177', 'CHILD');
    const html = Buffer.from('<html><script>alert(document.cookie)</script></html>');
    // A ZIP's local file header and end-of-central-directory record after the PNG's IEND.
    const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('payload.txt secret'), Buffer.from('PK\x05\x06', 'latin1'), Buffer.alloc(18)]);
    const cases = [
      { type: 'INDIVIDUAL_NUMBER_CARD', data: Buffer.concat([await jpeg(1000, 700), html]), marker: html, format: 'jpeg' },
      { type: 'CERTIFICATE_RESIDENCE', data: Buffer.concat([png(900, 1200), zip]), marker: Buffer.from('payload.txt secret'), format: 'png' },
    ];
    for (const polyglot of cases) {
      expect((await upload(server, child, polyglot.type, polyglot.data)).statusCode).toBe(201);
    }
    const rows = await server.app.db.select().from(documents).where(eq(documents.applicationId, child.id));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const polyglot = cases.find((entry) => entry.type === row.type);
      // The stored size differs from the upload's: a new encoding, without the tail.
      expect(row.byteSize).not.toBe(polyglot?.data.length);
      expect(row.content?.includes(polyglot?.marker ?? Buffer.alloc(1))).toBe(false);
      expect((await sharp(row.content ?? Buffer.alloc(0)).metadata()).format).toBe(polyglot?.format);
    }
  });

  it.each([
    ['no boundary', 'multipart/form-data', '--x\r\nContent-Disposition: form-data; name="type"\r\n\r\nINDIVIDUAL_NUMBER_CARD\r\n--x--\r\n'],
    ['a boundary that does not match', 'multipart/form-data; boundary=expected', '--other\r\nContent-Disposition: form-data; name="type"\r\n\r\nINDIVIDUAL_NUMBER_CARD\r\n--other--\r\n'],
    ['a part that never ends', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG'],
    ['a header that never ends', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="type"'],
  ])('answers a broken multipart body (%s) with 400 and a Japanese message', async (_case, contentType, payload) => {
    const child = await confirmedApplication(server, '0177', 'CHILD');
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { ...headersOf(server, child), 'content-type': contentType },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: messages.badRequest });
  });

  it('takes the general current-address document only once the identity check asked for it (409 before)', async () => {
    const early = await confirmedApplication(server);
    const refused = await upload(server, early, 'CURRENT_ADDRESS_DOCUMENT');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: httpMessages.documentNotExpected });
    const approved = await verifiedApplication(server, { outcome: 'approve' });
    expect((await upload(server, approved, 'CURRENT_ADDRESS_DOCUMENT')).statusCode).toBe(409);
    const supplement = await verifiedApplication(server, { outcome: 'supplement' });
    expect((await upload(server, supplement, 'CURRENT_ADDRESS_DOCUMENT')).statusCode).toBe(201);
  });
});

describe('documents and DATA_DIR (pglite, DATA_DIR a folder)', () => {
  let server: TestServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'kouza-data-'));
    server = await startTestServer({ name: 'pglite' }, { config: { dataDir } });
  });
  afterAll(async () => {
    await server?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('writes no document to DATA_DIR, and a new upload of a type replaces the stored image', async () => {
    const who = await confirmedApplication(server, '0177', 'CHILD');
    await uploadOk(server, who, 'INDIVIDUAL_NUMBER_CARD', png(800, 600));
    // A JPEG+HTML polyglot: the stored copy is a JPEG without the HTML tail.
    const html = '<html><script>alert(1)</script></html>';
    const second = await uploadOk(server, who, 'INDIVIDUAL_NUMBER_CARD', Buffer.concat([await jpeg(900, 700), Buffer.from(html)]));
    const stored = await readDocument(server.app.db, who.id, 'INDIVIDUAL_NUMBER_CARD');
    expect(stored).toMatchObject({ id: second.id, contentType: 'image/jpeg', width: 900, height: 700 });
    expect(stored?.content.includes(html)).toBe(false);
    expect(await sharp(stored?.content).metadata()).toMatchObject({ format: 'jpeg', width: 900, height: 700 });
    expect(await readDocument(server.app.db, who.id, 'MATERNITY_HANDBOOK')).toBeNull();
    expect((await readdir(dataDir)).sort()).not.toContain('documents');
    // And the PIN key (made once the server listens, or at the first PIN request: this one asks)
    // was generated beside the database, out of git's way.
    await server.app.pinKeys();
    const keys = await readdir(path.join(dataDir, 'keys'));
    expect(keys).toHaveLength(1);
    expect((await stat(path.join(dataDir, 'keys', keys[0] ?? ''))).mode & 0o777).toBe(0o600);
  });
});

describe('documents uploaded before migration 0012 (pglite, DATA_DIR a folder)', () => {
  let dataDir: string;
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('are imported from DATA_DIR/documents when the server starts', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'kouza-data-'));
    // The database as a server before 0012 left it: a row naming its file.
    const client = await PGlite.create(path.join(dataDir, 'pglite'));
    await migrate(pgliteMigrationTarget(client), (await readMigrations()).filter((file) => file.name < '0012'));
    const id = '00000000-0000-4000-8000-0000000000aa';
    const image = png(800, 600);
    await client.query(`INSERT INTO applications (id, bank_code, application_type, mail_address) VALUES ($1, '0177', 'CHILD', 'a@example.com')`, [id]);
    await client.query(
      `INSERT INTO documents (application_id, type, stored_name, content_type, byte_size, width, height, created_at) VALUES ($1, 'INDIVIDUAL_NUMBER_CARD', 'aa.png', 'image/png', $2, 800, 600, now())`,
      [id, image.length],
    );
    await client.close();
    await mkdir(path.join(dataDir, 'documents', id), { recursive: true });
    await writeFile(path.join(dataDir, 'documents', id, 'aa.png'), image);

    const log = captureLog();
    const server = await startTestServer({ name: 'pglite' }, { config: { dataDir, logLevel: 'info' }, logStream: log.stream });
    try {
      expect((await readDocument(server.app.db, id, 'INDIVIDUAL_NUMBER_CARD'))?.content).toEqual(image);
      expect(await readdir(dataDir)).not.toContain('documents');
      expect(log.lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toContainEqual(expect.objectContaining({ imported: 1, missing: 0 }));
    } finally {
      await server.close();
    }
  });
});
