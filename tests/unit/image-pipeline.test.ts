// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  fitWithin,
  ImageConversionError,
  prepareDocumentImage,
  qualitySteps,
  sniffType,
  UPLOAD_MAX_BYTES,
  type Resizer,
} from '../../src/client/platform/imagePipeline';

/**
 * The rules of the upload pipeline (spec section 9) with a stand-in for pica: the real
 * resize and JPEG encoding run in the browser (tests/e2e/ekyc.spec.ts, bench/pica.ts).
 */

afterEach(() => {
  vi.unstubAllGlobals();
});

function fileOf(head: number[], size: number, name = 'photo', type = ''): File {
  const bytes = new Uint8Array(size);
  bytes.set(head);
  return new File([bytes], name, { type });
}
const JPEG = [0xff, 0xd8, 0xff, 0xe1];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ftyp = (brand: string) => [0, 0, 0, 0x18, ...Array.from(`ftyp${brand}`, (c) => c.charCodeAt(0))];

/** A decoded picture of the given size (createImageBitmap stand-in). */
function decodesAs(width: number, height: number) {
  const close = vi.fn();
  vi.stubGlobal('createImageBitmap', vi.fn(async () => ({ width, height, close })));
  return close;
}

/** Encodes to width x height x quality x bytesPerPixel bytes; records every call. */
function fakeResizer(bytesPerPixel: number) {
  const calls: Array<{ width: number; height: number; quality?: number }> = [];
  const resizer: Resizer = {
    resize: async (_from, to) => {
      calls.push({ width: to.width, height: to.height });
      return to;
    },
    toBlob: async (canvas, mimeType, quality) => {
      calls.push({ width: canvas.width, height: canvas.height, quality });
      // Only size and type are read: no need to allocate the bytes.
      return { size: Math.round(canvas.width * canvas.height * quality * bytesPerPixel), type: mimeType } as Blob;
    },
  };
  return { resizer, calls };
}

describe('image pipeline', () => {
  it('fits within 1920 x 1080 in either orientation, keeps the aspect and never enlarges', () => {
    expect(fitWithin({ width: 4000, height: 3000 })).toEqual({ width: 1440, height: 1080 });
    expect(fitWithin({ width: 3000, height: 4000 })).toEqual({ width: 1080, height: 1440 });
    expect(fitWithin({ width: 4000, height: 1000 })).toEqual({ width: 1920, height: 480 });
    expect(fitWithin({ width: 1920, height: 1080 })).toEqual({ width: 1920, height: 1080 });
    expect(fitWithin({ width: 800, height: 600 })).toEqual({ width: 800, height: 600 });
  });

  it('tries the qualities 0.9 down to 0.1', () => {
    expect(qualitySteps()).toEqual([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1]);
  });

  it('tells JPEG, PNG and HEIC by their first bytes', () => {
    expect(sniffType(new Uint8Array(JPEG))).toBe('jpeg');
    expect(sniffType(new Uint8Array(PNG))).toBe('png');
    expect(sniffType(new Uint8Array(ftyp('heic')))).toBe('heic');
    expect(sniffType(new Uint8Array(ftyp('mif1')))).toBe('heic');
    expect(sniffType(new Uint8Array(ftyp('avif')))).toBe('other');
    expect(sniffType(new Uint8Array([0x47, 0x49, 0x46, 0x38]))).toBe('other');
  });

  it('sends a JPEG or PNG of at most 1 MiB as it is', async () => {
    const { resizer, calls } = fakeResizer(1);
    for (const head of [JPEG, PNG]) {
      const file = fileOf(head, UPLOAD_MAX_BYTES);
      expect(await prepareDocumentImage(file, { resizer })).toBe(file);
    }
    expect(calls).toEqual([]);
  });

  it('re-encodes a larger photo within 1920 x 1080, lowering the quality by 0.1 until it fits', async () => {
    const close = decodesAs(4000, 3000);
    const { resizer, calls } = fakeResizer(2);
    const out = await prepareDocumentImage(fileOf(JPEG, UPLOAD_MAX_BYTES + 1), { resizer });
    // 1440 x 1080 x q x 2 <= 1 MiB first at q = 0.3.
    expect(calls).toEqual([
      { width: 1440, height: 1080 },
      ...[0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3].map((quality) => ({ width: 1440, height: 1080, quality })),
    ]);
    expect(out.type).toBe('image/jpeg');
    expect(out.size).toBeLessThanOrEqual(UPLOAD_MAX_BYTES);
    expect(close).toHaveBeenCalled();
  });

  it('scales further down once quality 0.1 is not enough', async () => {
    decodesAs(4000, 3000);
    const { resizer, calls } = fakeResizer(8);
    const out = await prepareDocumentImage(fileOf(JPEG, 5_000_000), { resizer });
    const resizes = calls.filter((c) => c.quality === undefined);
    expect(resizes).toEqual([
      { width: 1440, height: 1080 },
      { width: 1080, height: 810 },
    ]);
    expect(out.size).toBeLessThanOrEqual(UPLOAD_MAX_BYTES);
  });

  it('never enlarges a small picture that is too heavy (e.g. a 16-bit PNG)', async () => {
    decodesAs(800, 600);
    const { resizer, calls } = fakeResizer(1);
    await prepareDocumentImage(fileOf(PNG, UPLOAD_MAX_BYTES + 10), { resizer });
    expect(calls[0]).toEqual({ width: 800, height: 600 });
  });

  it('converts other small formats (GIF, WebP…) too: the server takes JPEG and PNG only', async () => {
    decodesAs(1000, 700);
    const { resizer } = fakeResizer(1);
    const out = await prepareDocumentImage(fileOf([0x47, 0x49, 0x46, 0x38], 10_000, 'a.gif', 'image/gif'), { resizer });
    expect(out.type).toBe('image/jpeg');
  });

  it('throws a typed error for a HEIC the browser cannot decode, and for an unreadable picture', async () => {
    vi.stubGlobal('createImageBitmap', vi.fn(async () => Promise.reject(new DOMException('cannot decode', 'InvalidStateError'))));
    const { resizer } = fakeResizer(1);
    const heic = prepareDocumentImage(fileOf(ftyp('heic'), 3_000_000, 'IMG_0001.HEIC', 'image/heic'), { resizer });
    await expect(heic).rejects.toBeInstanceOf(ImageConversionError);
    await expect(heic).rejects.toMatchObject({ reason: 'heic' });
    // Named .heic but no brand in the bytes (some pickers): still reported as HEIC.
    await expect(prepareDocumentImage(fileOf([1, 2, 3], 100, 'x.heic'), { resizer })).rejects.toMatchObject({ reason: 'heic' });
    await expect(prepareDocumentImage(fileOf([1, 2, 3], 2_000_000, 'broken.jpg'), { resizer })).rejects.toMatchObject({ reason: 'unreadable' });
  });

  it('converts a HEIC the browser can decode (Safari)', async () => {
    decodesAs(4032, 3024);
    const { resizer } = fakeResizer(0.5);
    const out = await prepareDocumentImage(fileOf(ftyp('heic'), 900_000, 'IMG_0002.HEIC', 'image/heic'), { resizer });
    expect(out.type).toBe('image/jpeg');
  });

  it('gives up with a typed error when nothing fits above the smallest readable size', async () => {
    decodesAs(4000, 3000);
    const { resizer } = fakeResizer(1000);
    await expect(prepareDocumentImage(fileOf(JPEG, 5_000_000), { resizer })).rejects.toMatchObject({ reason: 'tooLarge' });
  });

  it('reports a failing resize as a conversion error', async () => {
    decodesAs(4000, 3000);
    const resizer: Resizer = { resize: async () => Promise.reject(new Error('no canvas')), toBlob: async () => new Blob() };
    await expect(prepareDocumentImage(fileOf(JPEG, 5_000_000), { resizer })).rejects.toMatchObject({ reason: 'unreadable' });
  });
});
