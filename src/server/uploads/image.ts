import { DOCUMENT_MAX_SIDE, DOCUMENT_MIN_SIDE } from '../../domain/ekyc.js';

/**
 * An uploaded identity-document photo, decoded in full and encoded anew, so that what is
 * stored is only its pixels: no trailing HTML or ZIP of a polyglot file, no EXIF (location,
 * camera serial), no half of a truncated file. The first bytes and the declared type prove
 * nothing; a complete decode does.
 */

export type StoredImageFormat = 'jpeg' | 'png';

export interface ReencodedImage {
  format: StoredImageFormat;
  contentType: 'image/jpeg' | 'image/png';
  data: Buffer;
  width: number;
  height: number;
}

/** Why an upload was refused: not JPEG/PNG, not decodable to the end, or a side out of bounds. */
export type ImageRefusal = 'type' | 'unreadable' | 'dimensions';

const CONTENT_TYPES = { jpeg: 'image/jpeg', png: 'image/png' } as const;
// A decompression bomb (a small file of huge dimensions) is refused before any pixel is decoded.
const MAX_INPUT_PIXELS = DOCUMENT_MAX_SIDE * DOCUMENT_MAX_SIDE;
// 'error': a decode error or a truncated file fails; libjpeg's harmless warnings on real phone
// photos (extraneous bytes before a marker) do not.
const DECODE = { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS } as const;
const JPEG_QUALITY = 90;

function isStoredFormat(format: string | undefined): format is StoredImageFormat {
  return format === 'jpeg' || format === 'png';
}

function sideOutOfBounds(side: number): boolean {
  return !Number.isInteger(side) || side < DOCUMENT_MIN_SIDE || side > DOCUMENT_MAX_SIDE;
}

export async function reencodeImage(input: Buffer): Promise<ReencodedImage | ImageRefusal> {
  // Imported on the first upload, not at start: sharp and libvips cost a start some 100 ms and
  // 25 MB of memory, and most processes' uploads come long after their start, if at all.
  const { default: sharp } = await import('sharp');
  let format: string | undefined;
  let width = 0;
  let height = 0;
  try {
    // The header only: format and size, nothing decoded yet.
    ({ format, width = 0, height = 0 } = await sharp(input, { ...DECODE, limitInputPixels: false }).metadata());
  } catch {
    return 'type';
  }
  if (!isStoredFormat(format)) return 'type';
  if (sideOutOfBounds(width) || sideOutOfBounds(height)) return 'dimensions';
  try {
    // rotate() applies the EXIF orientation to the pixels, as the metadata is not kept.
    const pipeline = sharp(input, DECODE).rotate();
    const encoded = format === 'jpeg' ? pipeline.jpeg({ quality: JPEG_QUALITY }) : pipeline.png();
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { format, contentType: CONTENT_TYPES[format], data, width: info.width, height: info.height };
  } catch {
    return 'unreadable';
  }
}
