import { afterEach, beforeEach, vi } from 'vitest';

/**
 * What the photo-upload screens need from a browser that jsdom lacks, for their component
 * tests: XMLHttpRequest with upload progress (answered by the test) and object URLs for the
 * preview. The server side of uploads is tested for real in tests/api/documents.test.ts.
 */
export class FakeXhr {
  static instances: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.instances.push(this);
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

/**
 * Installs the fakes before each test of the calling file (and a signed-in session) and
 * removes them after. Returns the object URLs created and revoked, in order.
 */
export function useUploadFakes(): { created: string[]; revoked: string[] } {
  const urls = { created: [] as string[], revoked: [] as string[] };
  beforeEach(() => {
    FakeXhr.instances = [];
    urls.created.length = 0;
    urls.revoked.length = 0;
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    URL.createObjectURL = vi.fn(() => {
      const url = `blob:preview-${urls.created.length + 1}`;
      urls.created.push(url);
      return url;
    });
    URL.revokeObjectURL = vi.fn((url: string) => {
      urls.revoked.push(url);
    });
    sessionStorage.setItem('authenticationToken', 'token-123');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    sessionStorage.clear();
  });
  return urls;
}

/** A small JPEG as a phone would give it (only the first bytes matter to the pipeline). */
export function smallJpeg(name = 'photo.jpg'): File {
  const bytes = new Uint8Array(2048);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  return new File([bytes], name, { type: 'image/jpeg' });
}

/** An iPhone HEIC photo, which the page cannot decode. */
export function heic(): File {
  const bytes = new Uint8Array(4096);
  bytes.set([0, 0, 0, 0x18, ...Array.from('ftypheic', (c) => c.charCodeAt(0))]);
  return new File([bytes], 'IMG_0001.HEIC', { type: 'image/heic' });
}
