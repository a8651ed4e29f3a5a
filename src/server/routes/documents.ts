import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import {
  DOCUMENT_MAX_BYTES,
  DOCUMENT_TYPES_BY_APPLICATION,
  EKYC_STATUS,
  isDocumentType,
  type DocumentType,
} from '../../domain/ekyc.js';
import { messages } from '../../domain/messages.js';
import { ClientError } from '../boundary/errors.js';
import { cleanText } from '../boundary/text.js';
import { httpMessages } from '../http-messages.js';
import { applicationOf, ekycStateOfRequest, requireApplicationWithEkyc } from '../plugins/auth.js';
import { reencodeImage, type ImageRefusal } from '../uploads/image.js';
import { putDocument } from '../uploads/store.js';
import { childDocumentImagesOffered } from '../ekyc/providers.js';

/**
 * POST /api/documents (multipart/form-data: `image` the file, `type` one of src/domain/ekyc.ts
 * DOCUMENT_TYPES) -> 201 { id, type }.
 *
 * - Which types: a child application uploads INDIVIDUAL_NUMBER_CARD and
 *   CERTIFICATE_RESIDENCE or MATERNITY_HANDBOOK (before the parent's identity check); a general
 *   application uploads CURRENT_ADDRESS_DOCUMENT, and only once the identity check was
 *   approved with `supplement` (the /supplement step). Anything else: 400 (unknown type) or
 *   409 (not expected now, or the application is complete).
 * - Limits (src/domain/ekyc.ts): at most DOCUMENT_MAX_BYTES (1 MiB) per file, else 413
 *   { message }; JPEG or PNG by the file's content, whatever its name or declared type, and
 *   decodable to its last pixel, else 400; each side between DOCUMENT_MIN_SIDE and
 *   DOCUMENT_MAX_SIDE pixels, else 400. A broken multipart body is a 400 too.
 * - Storage: a re-encoded copy (uploads/image.ts: pixels only, no metadata, no trailing
 *   data) in the database, never on the process's disk, so every server process on the
 *   database reads it (uploads/store.ts, ADR 0025). One per application and type: a new
 *   upload of a type replaces the old one.
 */

const refusals: Record<ImageRefusal, string> = {
  type: httpMessages.documentType,
  unreadable: httpMessages.documentUnreadable,
  dimensions: httpMessages.documentDimensions,
};

interface Upload {
  image: Buffer | null;
  type: string | null;
}

const badRequest = (reply: FastifyReply, message: string = messages.badRequest) => reply.code(400).send({ message });

const documentRoutes: FastifyPluginAsync = async (app) => {
  await app.register(multipart, {
    limits: {
      fileSize: DOCUMENT_MAX_BYTES,
      files: 1,
      fields: 4,
      parts: 6,
      fieldSize: 256,
      headerPairs: 32,
    },
  });

  app.post('/documents', { onRequest: requireApplicationWithEkyc }, async (request, reply) => {
    const { id: applicationId, applicationType } = applicationOf(request);

    const upload: Upload = { image: null, type: null };
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          // toBuffer stops at the limit and throws FST_REQ_FILE_TOO_LARGE (413).
          if (part.fieldname === 'image' && upload.image === null) upload.image = await part.toBuffer();
          else part.file.resume();
        } else if (part.fieldname === 'type' && typeof part.value === 'string') {
          upload.type = cleanText(part.value);
        }
      }
    } catch (error) {
      // Everything the multipart parser throws is about the body the client sent: no
      // boundary, a boundary that does not match, a part that never ends, too many parts.
      const status = (error as { statusCode?: unknown }).statusCode;
      if (status === 413) throw new ClientError(413, httpMessages.documentTooLarge, { cause: error });
      throw new ClientError(400, messages.badRequest, { cause: error });
    }

    const type = upload.type;
    if (!isDocumentType(type) || !upload.image || upload.image.length === 0) return badRequest(reply);
    if (!DOCUMENT_TYPES_BY_APPLICATION[applicationType].includes(type)) return badRequest(reply);

    // As the session check found them, in its statement.
    const ekyc = ekycStateOfRequest(request);
    if (ekyc.applicationNumber) return reply.code(409).send({ message: httpMessages.applicationCompleted });
    if (applicationType === 'CHILD' && !childDocumentImagesOffered(app, app.banks.get(applicationOf(request).bankCode))) {
      return reply.code(409).send({ message: httpMessages.documentNotExpected });
    }
    if (type === 'CURRENT_ADDRESS_DOCUMENT') {
      const { latest } = ekyc;
      if (latest?.status !== EKYC_STATUS.bankerProcessing || !latest.supplement) {
        return reply.code(409).send({ message: httpMessages.documentNotExpected });
      }
    }

    const reencoded = await reencodeImage(upload.image);
    if (typeof reencoded === 'string') return badRequest(reply, refusals[reencoded]);
    const { data: content, contentType, width, height } = reencoded;
    const documentId = await putDocument(app.db, applicationId, type, { content, contentType, width, height }, app.now());
    return reply.code(201).send({ id: documentId, type: type satisfies DocumentType });
  });
};

export default documentRoutes;
