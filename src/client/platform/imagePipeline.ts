import { DOCUMENT_MAX_BYTES, DOCUMENT_MIN_SIDE } from '../../domain/ekyc';

/**
 * Prepares a photo of a document for POST /api/documents (spec section 9, "Image upload"):
 *
 * - A JPEG or PNG of at most 1,048,576 bytes is sent as it is (judged by its first bytes, not
 *   by its name or declared type).
 * - Anything else is decoded and re-encoded as JPEG with pica (Lanczos-quality resize, loaded
 *   only when needed): scaled to fit 1920 x 1080 (long side at most 1920, short side at most
 *   1080, aspect kept, never enlarged), quality 0.9, then 0.8, … down to 0.1 until the file
 *   fits in 1 MiB; if even 0.1 does not fit, the picture is scaled down by a quarter and the
 *   qualities are tried again (not below DOCUMENT_MIN_SIDE, which the server refuses).
 * - HEIC/HEIF that the browser cannot decode (every browser but Safari), any other image it
 *   cannot decode, and a picture that cannot be made to fit throw ImageConversionError, which
 *   the screens turn into their error flow. A HEIC the browser can decode is converted like
 *   any large photo: the server accepts only JPEG and PNG.
 *
 * Workers and CSP: pica runs its maths in Web Workers loaded from a same-origin file (the
 * `?url` import below), which the page's CSP (script-src 'self') allows; pica's default
 * inline blob: worker would be refused. WebAssembly needs 'wasm-unsafe-eval', which the CSP
 * does not grant: pica then uses its JavaScript maths (in the workers), without failing.
 */

export const UPLOAD_MAX_BYTES = DOCUMENT_MAX_BYTES;
export const MAX_LONG_SIDE = 1920;
export const MAX_SHORT_SIDE = 1080;
export const FIRST_QUALITY = 0.9;
export const QUALITY_STEP = 0.1;
export const LAST_QUALITY = 0.1;
/** Scale of each further round once quality 0.1 was not enough. */
export const FURTHER_SCALE = 0.75;

export type ImageConversionReason = 'heic' | 'unreadable' | 'tooLarge';

export class ImageConversionError extends Error {
  readonly reason: ImageConversionReason;
  constructor(reason: ImageConversionReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ImageConversionError';
    this.reason = reason;
  }
}

export function isImageConversionError(error: unknown): error is ImageConversionError {
  return error instanceof ImageConversionError;
}

export type SniffedType = 'jpeg' | 'png' | 'heic' | 'other';

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs', 'mif1', 'msf1']);

/** The file's real type from its first 12 bytes. */
export function sniffType(head: Uint8Array): SniffedType {
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head[0] === 0x89 && head[1] === 0x50 && head[2] === 0x4e && head[3] === 0x47) return 'png';
  const box = String.fromCharCode(...head.subarray(4, 8));
  const brand = String.fromCharCode(...head.subarray(8, 12));
  if (box === 'ftyp' && HEIF_BRANDS.has(brand)) return 'heic';
  return 'other';
}

async function headOf(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.slice(0, 12).arrayBuffer());
}

function looksLikeHeic(file: Blob): boolean {
  const name = file instanceof File ? file.name : '';
  return /^image\/hei[cf]/i.test(file.type) || /\.hei[cf]$/i.test(name);
}

export interface Size {
  width: number;
  height: number;
}

/** The size within long x short (either orientation), aspect kept, never enlarged. */
export function fitWithin({ width, height }: Size, longSide = MAX_LONG_SIDE, shortSide = MAX_SHORT_SIDE): Size {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  const scale = Math.min(1, longSide / long, shortSide / short);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** 0.9, 0.8, … 0.1 (rounded: 0.9 - 0.1 * n drifts in floating point). */
export function qualitySteps(): number[] {
  const steps: number[] = [];
  for (let q = FIRST_QUALITY; q >= LAST_QUALITY - 1e-9; q -= QUALITY_STEP) steps.push(Math.round(q * 10) / 10);
  return steps;
}

/** The parts of pica the pipeline uses (so tests can stand in for it). */
export interface Resizer {
  resize(from: ImageBitmap | HTMLImageElement | HTMLCanvasElement, to: HTMLCanvasElement): Promise<HTMLCanvasElement>;
  toBlob(canvas: HTMLCanvasElement, mimeType: string, quality: number): Promise<Blob>;
}

/**
 * pica's Hamming filter: a sharp, alias-free downscale at about 40 % of the time of its default
 * (mks2013) on a 12 MP photo (bench/pica.ts); document text stays crisp at 1440 x 1080.
 */
export const PICA_FILTER = 'hamming';

let picaLoading: Promise<Resizer> | null = null;

/** pica and its worker file, downloaded on first use only. */
export function loadPica(): Promise<Resizer> {
  picaLoading ??= Promise.all([import('pica/pica_main'), import('pica/pica_worker?url')]).then(([module, worker]) => {
    const instance = module.default({ features: ['js', 'wasm', 'ww'], workerURL: worker.default });
    return {
      resize: (from, to) => instance.resize(from, to, { filter: PICA_FILTER }),
      toBlob: (canvas, mimeType, quality) => instance.toBlob(canvas, mimeType, quality),
    };
  });
  picaLoading.catch(() => {
    picaLoading = null;
  });
  return picaLoading;
}

/** A decoded picture, upright (EXIF orientation applied), and how to let it go. */
interface Decoded {
  source: ImageBitmap | HTMLImageElement;
  size: Size;
  release: () => void;
}

async function decode(file: Blob): Promise<Decoded> {
  if (typeof createImageBitmap === 'function') {
    const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
    return { source: bitmap, size: { width: bitmap.width, height: bitmap.height }, release: () => bitmap.close() };
  }
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    return { source: image, size: { width: image.naturalWidth, height: image.naturalHeight }, release: () => undefined };
  } finally {
    URL.revokeObjectURL(url);
  }
}

export interface PrepareOptions {
  /** Called with a short Japanese status while a large photo is converted. */
  onStage?: (stage: 'decoding' | 'resizing' | 'encoding') => void;
  /** Stand-in for pica in tests. */
  resizer?: Resizer;
  maxBytes?: number;
}

/** The photo as it will be uploaded (the file itself, or a JPEG that fits). */
export async function prepareDocumentImage(file: Blob, options: PrepareOptions = {}): Promise<Blob> {
  const maxBytes = options.maxBytes ?? UPLOAD_MAX_BYTES;
  const type = sniffType(await headOf(file));
  if ((type === 'jpeg' || type === 'png') && file.size <= maxBytes) return file;
  const heic = type === 'heic' || looksLikeHeic(file);

  options.onStage?.('decoding');
  let decoded: Decoded;
  try {
    decoded = await decode(file);
  } catch (cause) {
    throw heic
      ? new ImageConversionError('heic', 'this browser cannot decode HEIC/HEIF pictures', { cause })
      : new ImageConversionError('unreadable', 'the picture could not be decoded', { cause });
  }
  if (decoded.size.width === 0 || decoded.size.height === 0) {
    decoded.release();
    throw new ImageConversionError('unreadable', 'the picture has no pixels');
  }

  try {
    const resizer = options.resizer ?? (await loadPica());
    let size = fitWithin(decoded.size);
    for (;;) {
      options.onStage?.('resizing');
      const canvas = document.createElement('canvas');
      canvas.width = size.width;
      canvas.height = size.height;
      await resizer.resize(decoded.source, canvas);
      options.onStage?.('encoding');
      for (const quality of qualitySteps()) {
        const blob = await resizer.toBlob(canvas, 'image/jpeg', quality);
        if (blob.size <= maxBytes) {
          canvas.width = canvas.height = 0;
          return blob;
        }
      }
      canvas.width = canvas.height = 0;
      const next = { width: Math.round(size.width * FURTHER_SCALE), height: Math.round(size.height * FURTHER_SCALE) };
      if (Math.min(next.width, next.height) < DOCUMENT_MIN_SIDE) {
        throw new ImageConversionError('tooLarge', 'the picture does not fit in the upload limit');
      }
      size = next;
    }
  } catch (error) {
    if (error instanceof ImageConversionError) throw error;
    throw new ImageConversionError('unreadable', 'the picture could not be converted', { cause: error });
  } finally {
    decoded.release();
  }
}
