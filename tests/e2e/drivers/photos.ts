import type { Page } from '@playwright/test';

/**
 * Photos for the capture screens, drawn by the browser as a phone camera would store them, and
 * a look at what the page then uploads.
 *
 * - 'card': a card on a dark desk, 1600 x 1000, a JPEG well under 1 MiB: sent as it is.
 * - 'paper': a 12 MP photo (4000 x 3000) of a paper document with sensor grain, well over
 *   1 MiB: the page must scale and compress it before the upload.
 * Each is drawn once per test worker (the 12 MP one takes a moment) and reused.
 */
export type PhotoKind = 'card' | 'paper';

export const ONE_MIB = 1_048_576;

const drawn = new Map<PhotoKind, Promise<Buffer>>();

export function documentPhoto(page: Page, kind: PhotoKind): Promise<Buffer> {
  let photo = drawn.get(kind);
  if (!photo) {
    photo = draw(page, kind);
    drawn.set(kind, photo);
    // A page closed while drawing must not leave a broken photo for the next test.
    photo.catch(() => drawn.delete(kind));
  }
  return photo;
}

async function draw(page: Page, kind: PhotoKind): Promise<Buffer> {
  const base64 = await page.evaluate(async (paper) => {
    const [width, height] = paper ? [4000, 3000] : [1600, 1000];
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no canvas');
    if (paper) {
      const gradient = ctx.createLinearGradient(0, 0, width, height);
      gradient.addColorStop(0, '#d9d2c0');
      gradient.addColorStop(1, '#8c8170');
      ctx.fillStyle = gradient;
      ctx.fillRect(0, 0, width, height);
      ctx.fillStyle = '#fdfcf7';
      ctx.fillRect(600, 400, 2800, 2200);
      ctx.fillStyle = '#1e1e1e';
      ctx.font = '72px sans-serif';
      for (let line = 0; line < 20; line += 1) ctx.fillText('住民票の写し　福岡県福岡市中央区天神2-13-1', 700, 520 + line * 100);
      // Sensor grain: what makes a real camera JPEG this large.
      const image = ctx.getImageData(0, 0, width, height);
      for (let i = 0; i < image.data.length; i += 4) {
        const grain = (Math.random() - 0.5) * 40;
        image.data[i] = (image.data[i] ?? 0) + grain;
        image.data[i + 1] = (image.data[i + 1] ?? 0) + grain;
        image.data[i + 2] = (image.data[i + 2] ?? 0) + grain;
      }
      ctx.putImageData(image, 0, 0);
    } else {
      // A card out of its cover on a dark, plain background, as the screen asks.
      ctx.fillStyle = '#2f3a44';
      ctx.fillRect(0, 0, width, height);
      ctx.fillStyle = '#f4f1ea';
      ctx.fillRect(230, 170, 1140, 660);
      ctx.fillStyle = '#c9c2b3';
      ctx.fillRect(1060, 330, 240, 300);
      ctx.fillStyle = '#1e1e1e';
      ctx.font = '44px sans-serif';
      ctx.fillText('個人番号カード', 280, 250);
      for (let line = 0; line < 5; line += 1) ctx.fillText('氏名　福岡 太郎　住所　福岡県福岡市中央区天神', 280, 360 + line * 80);
    }
    const blob = await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('toBlob failed'))), 'image/jpeg', 0.92),
    );
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  }, kind === 'paper');
  return Buffer.from(base64, 'base64');
}

/** A file as setInputFiles takes it. */
export function asCameraFile(photo: Buffer, name = 'IMG_0001.jpg') {
  return { name, mimeType: 'image/jpeg', buffer: photo };
}

/** An iPhone HEIC photo: Chromium cannot decode it, so the page cannot convert it. */
export function unreadableHeic() {
  const header = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic', 'latin1'), Buffer.alloc(12)]);
  return { name: 'IMG_0002.HEIC', mimeType: 'image/heic', buffer: Buffer.concat([header, Buffer.alloc(4096, 0x5a)]) };
}

/** One image the page sent with POST /api/documents. */
export interface UploadedImage {
  size: number;
  type: string;
  width: number;
  height: number;
  /** First three bytes (ff d8 ff for a JPEG). */
  head: number[];
  documentType: string | null;
}

/**
 * Keeps what the page hands to XMLHttpRequest for each upload, in every document this page
 * loads (Playwright does not expose multipart bodies with files). Call before the page opens.
 */
export async function watchUploads(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const target = window as unknown as { __uploads: Array<Promise<unknown>> };
    target.__uploads = [];
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
      if (body instanceof FormData) {
        const image = body.get('image');
        const documentType = body.get('type');
        if (image instanceof Blob) {
          target.__uploads.push(
            Promise.all([createImageBitmap(image), image.slice(0, 3).arrayBuffer()]).then(([bitmap, head]) => ({
              size: image.size,
              type: image.type,
              width: bitmap.width,
              height: bitmap.height,
              head: Array.from(new Uint8Array(head)),
              documentType: typeof documentType === 'string' ? documentType : null,
            })),
          );
        }
      }
      return send.call(this, body);
    };
  });
}

/** The uploads of the current document, in order (see watchUploads). */
export async function readUploads(page: Page): Promise<UploadedImage[]> {
  return page.evaluate(() => Promise.all((window as unknown as { __uploads?: Array<Promise<UploadedImage>> }).__uploads ?? []));
}
