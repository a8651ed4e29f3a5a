import type { DocumentType } from '../../domain/ekyc';
import { handleUnauthorized } from '../api/client';
import { session } from './session';
import { sessionActivity } from './sessionActivity';

/**
 * POST /api/documents (multipart: `type`, then `image`) with XMLHttpRequest, whose upload
 * events give the progress that fetch cannot give. Same conventions as api/client.ts: the
 * token in the Authorization header, no timeout, any 401 ends the session through the
 * runtime's handler.
 */

export interface UploadedDocument {
  id?: unknown;
  type?: unknown;
}

export class UploadError extends Error {
  /** HTTP status, or undefined when the network failed or the upload was aborted. */
  readonly status: number | undefined;
  /** The server's Japanese message ({ message }), when it sent one. */
  readonly serverMessage: string | undefined;
  constructor(status: number | undefined, serverMessage: string | undefined) {
    super(status === undefined ? 'the upload did not reach the server' : `the upload was answered with ${status}`);
    this.name = 'UploadError';
    this.status = status;
    this.serverMessage = serverMessage;
  }
}

export interface UploadOptions {
  type: DocumentType;
  image: Blob;
  /** Name sent with the file; the server judges the content, not the name. */
  fileName?: string;
  /** Fraction sent, 0 to 1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function messageIn(body: unknown): string | undefined {
  return body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' ? body.message : undefined;
}

export function uploadDocument({ type, image, fileName, onProgress, signal }: UploadOptions): Promise<UploadedDocument> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append('type', type);
    form.append('image', image, fileName ?? (image.type === 'image/png' ? 'document.png' : 'document.jpg'));

    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/documents');
    xhr.setRequestHeader('Accept', 'application/json');
    const token = session.get('authenticationToken');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);

    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(1, event.loaded / event.total));
    };
    xhr.onload = () => {
      if (token && xhr.status !== 401) sessionActivity.touch();
      const body = parseJson(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1);
        resolve(body && typeof body === 'object' ? (body as UploadedDocument) : {});
        return;
      }
      if (xhr.status === 401) handleUnauthorized();
      reject(new UploadError(xhr.status, messageIn(body)));
    };
    xhr.onerror = () => reject(new UploadError(undefined, undefined));
    xhr.onabort = () => reject(new UploadError(undefined, undefined));

    if (signal) {
      if (signal.aborted) {
        reject(new UploadError(undefined, undefined));
        return;
      }
      signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}
