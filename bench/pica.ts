/**
 * npx tsx bench/pica.ts [runs]
 *
 * The upload pipeline's conversion of a large photo (src/client/platform/imagePipeline.ts), in
 * headless Chromium (/usr/bin/chromium when present): a 4000 x 3000 (12 MP) photo-like picture
 * with sensor-like noise is encoded as a camera JPEG, then, per run, decoded
 * (createImageBitmap), scaled to fit 1920 x 1080 (→ 1440 x 1080) and encoded as JPEG from
 * quality 0.9 down by 0.1 until it fits in 1 MiB:
 *
 * - pica as it comes (WebAssembly maths in Web Workers, its default mks2013 filter);
 * - pica with the Hamming filter the app uses (imagePipeline.ts PICA_FILTER), with WebAssembly
 *   (a page whose CSP allows 'wasm-unsafe-eval') and without it (JavaScript maths in Web
 *   Workers): the latter is what our page gets today, as its CSP allows same-origin workers
 *   but not 'wasm-unsafe-eval';
 * - a plain canvas drawImage (imageSmoothingQuality 'high') + toBlob, for comparison.
 *
 * Prints the median of `runs` runs (default 5, after one warm-up) for each, split into
 * decode / resize / encode, the quality reached and the size, and the ratios. No assertions;
 * the goal is pica under 1.5 s for the whole conversion on this machine.
 */
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { createRequire } from 'node:module';
import { chromium } from '@playwright/test';

const RUNS = Number(process.argv[2] ?? 5);
const require = createRequire(import.meta.url);
const picaScript = require.resolve('pica/dist/pica.min.js');
const systemChromium = '/usr/bin/chromium';

interface RunResult {
  decodeMs: number;
  resizeMs: number;
  encodeMs: number;
  totalMs: number;
  quality: number;
  bytes: number;
  width: number;
  height: number;
}

interface PageReport {
  sourceBytes: number;
  initMs: Record<string, number>;
  results: Record<string, RunResult[]>;
}

const NAMES = {
  picaDefault: 'pica wasm+ww mks2013',
  picaAll: 'pica wasm+ww hamming',
  picaCsp: 'pica js+ww hamming (app)',
  canvas: 'canvas drawImage',
} as const;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(0).padStart(5)} ms`;

async function main() {
  const browser = await chromium.launch({
    executablePath: existsSync(systemChromium) ? systemChromium : undefined,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><title>pica bench</title>');
    await page.addScriptTag({ path: picaScript });
    // tsx (esbuild, keepNames) wraps named functions in __name(); the page has no such helper.
    await page.evaluate('window.__name = (fn) => fn');

    const report = await page.evaluate(async ({ runs, names }: { runs: number; names: typeof NAMES }): Promise<PageReport> => {
      // pica.min.js is a UMD bundle: it defines window.pica.
      type PicaFactory = typeof import('pica').default;
      const pica = (window as unknown as { pica: PicaFactory }).pica;
      const MAX_BYTES = 1_048_576;
      const NAMES = names;
      const W = 4000;
      const H = 3000;

      // ---- a photo-like picture: sky gradient, ground, shapes, a "document", and noise ----
      const source = document.createElement('canvas');
      source.width = W;
      source.height = H;
      const ctx = source.getContext('2d');
      if (!ctx) throw new Error('no 2d context');
      const sky = ctx.createLinearGradient(0, 0, 0, H);
      sky.addColorStop(0, '#6fa8dc');
      sky.addColorStop(0.55, '#cfe2f3');
      sky.addColorStop(0.56, '#7f6a4f');
      sky.addColorStop(1, '#3d3326');
      ctx.fillStyle = sky;
      ctx.fillRect(0, 0, W, H);
      let seed = 42;
      const random = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
      for (let i = 0; i < 400; i += 1) {
        ctx.fillStyle = `hsla(${Math.floor(random() * 360)}, ${30 + random() * 50}%, ${25 + random() * 50}%, ${0.3 + random() * 0.6})`;
        ctx.beginPath();
        ctx.ellipse(random() * W, random() * H, 20 + random() * 300, 20 + random() * 200, random() * Math.PI, 0, Math.PI * 2);
        ctx.fill();
      }
      ctx.fillStyle = '#fbfaf5';
      ctx.fillRect(900, 700, 2200, 1600);
      ctx.fillStyle = '#222';
      ctx.font = '64px sans-serif';
      for (let line = 0; line < 18; line += 1) ctx.fillText('領収書　福岡県福岡市中央区天神2-13-1　福岡花子 様', 980, 820 + line * 80);
      const image = ctx.getImageData(0, 0, W, H);
      const data = image.data;
      for (let i = 0; i < data.length; i += 4) {
        const grain = (random() - 0.5) * 36;
        data[i] = Math.max(0, Math.min(255, (data[i] ?? 0) + grain + (random() - 0.5) * 10));
        data[i + 1] = Math.max(0, Math.min(255, (data[i + 1] ?? 0) + grain + (random() - 0.5) * 10));
        data[i + 2] = Math.max(0, Math.min(255, (data[i + 2] ?? 0) + grain + (random() - 0.5) * 10));
      }
      ctx.putImageData(image, 0, 0);
      const toBlob = (canvas: HTMLCanvasElement, quality: number) =>
        new Promise<Blob>((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('toBlob failed'))), 'image/jpeg', quality));
      // The file a phone camera would give.
      const cameraJpeg = await toBlob(source, 0.92);
      source.width = source.height = 0;

      // 4000 x 3000 fitted to 1920 x 1080 (long ≤ 1920, short ≤ 1080).
      const scale = Math.min(1, 1920 / W, 1080 / H);
      const toW = Math.round(W * scale);
      const toH = Math.round(H * scale);
      const qualities = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1];

      type Resize = (bitmap: ImageBitmap, target: HTMLCanvasElement) => Promise<void>;
      type Encode = (target: HTMLCanvasElement, quality: number) => Promise<Blob>;

      async function convert(resize: Resize, encode: Encode): Promise<RunResult> {
        const t0 = performance.now();
        const bitmap = await createImageBitmap(cameraJpeg, { imageOrientation: 'from-image' });
        const t1 = performance.now();
        const target = document.createElement('canvas');
        target.width = toW;
        target.height = toH;
        await resize(bitmap, target);
        bitmap.close();
        const t2 = performance.now();
        let out: Blob | null = null;
        let reached = Number.NaN;
        for (const quality of qualities) {
          const blob = await encode(target, quality);
          if (blob.size <= MAX_BYTES) {
            out = blob;
            reached = quality;
            break;
          }
        }
        const t3 = performance.now();
        target.width = target.height = 0;
        return { decodeMs: t1 - t0, resizeMs: t2 - t1, encodeMs: t3 - t2, totalMs: t3 - t0, quality: reached, bytes: out?.size ?? Number.NaN, width: toW, height: toH };
      }

      const initMs: Record<string, number> = {};
      async function picaWith(name: string, features: Array<'js' | 'wasm' | 'ww'>, filter: 'hamming' | 'mks2013') {
        const t = performance.now();
        const instance = pica({ features });
        await instance.init();
        initMs[name] = performance.now() - t;
        return {
          resize: async (bitmap: ImageBitmap, target: HTMLCanvasElement) => {
            await instance.resize(bitmap, target, { filter });
          },
          encode: (target: HTMLCanvasElement, quality: number) => instance.toBlob(target, 'image/jpeg', quality),
        };
      }
      const picaDefault = await picaWith(NAMES.picaDefault, ['js', 'wasm', 'ww'], 'mks2013');
      const picaAll = await picaWith(NAMES.picaAll, ['js', 'wasm', 'ww'], 'hamming');
      const picaNoWasm = await picaWith(NAMES.picaCsp, ['js', 'ww'], 'hamming');
      const canvas = {
        resize: async (bitmap: ImageBitmap, target: HTMLCanvasElement) => {
          const c = target.getContext('2d');
          if (!c) throw new Error('no 2d context');
          c.imageSmoothingEnabled = true;
          c.imageSmoothingQuality = 'high';
          c.drawImage(bitmap, 0, 0, target.width, target.height);
        },
        encode: toBlob,
      };

      const contenders: Record<string, { resize: Resize; encode: Encode }> = {
        [NAMES.picaDefault]: picaDefault,
        [NAMES.picaAll]: picaAll,
        [NAMES.picaCsp]: picaNoWasm,
        [NAMES.canvas]: canvas,
      };
      const results: Record<string, RunResult[]> = {};
      for (const [name, contender] of Object.entries(contenders)) {
        await convert(contender.resize, contender.encode); // warm-up
        results[name] = [];
        for (let run = 0; run < runs; run += 1) results[name].push(await convert(contender.resize, contender.encode));
      }
      return { sourceBytes: cameraJpeg.size, initMs, results };
    }, { runs: RUNS, names: NAMES });

    console.log(`Chromium ${browser.version()} · ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}) · median of ${RUNS} runs after a warm-up`);
    console.log(`source: 4000 x 3000 camera-like JPEG, ${(report.sourceBytes / 1024 / 1024).toFixed(2)} MiB`);
    for (const [name, init] of Object.entries(report.initMs)) console.log(`${name}: init ${init.toFixed(0)} ms (once per page)`);
    console.log('');
    console.log(`${'contender'.padEnd(24)} ${'decode'.padStart(8)} ${'resize'.padStart(8)} ${'encode'.padStart(8)} ${'total'.padStart(8)}  quality  size`);
    const totals: Record<string, number> = {};
    for (const [name, runs] of Object.entries(report.results)) {
      const m = (key: keyof RunResult) => median(runs.map((run) => run[key]));
      totals[name] = m('totalMs');
      const first = runs[0];
      console.log(
        `${name.padEnd(24)} ${ms(m('decodeMs'))} ${ms(m('resizeMs'))} ${ms(m('encodeMs'))} ${ms(m('totalMs'))}  ${String(first?.quality ?? '?').padStart(7)}  ${((first?.bytes ?? 0) / 1024).toFixed(0)} KiB (${first?.width} x ${first?.height})`,
      );
    }
    const canvasTotal = totals[NAMES.canvas] ?? Number.NaN;
    console.log('');
    for (const name of [NAMES.picaDefault, NAMES.picaAll, NAMES.picaCsp]) {
      const total = totals[name] ?? Number.NaN;
      console.log(`${name}: ${(total / canvasTotal).toFixed(2)} x the plain canvas time; goal < 1500 ms: ${total < 1500 ? 'met' : 'NOT met'}`);
    }
  } finally {
    await browser.close();
  }
}

await main();
