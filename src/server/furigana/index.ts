import { createRequire } from 'node:module';
import path from 'node:path';
import jaconv from 'jaconv';
import type { IpadicFeatures, Tokenizer } from 'kuromoji';

export { FURIGANA_MAX_LENGTH } from '../../domain/rules/index.js';

/** node_modules/kuromoji/dict (IPADIC, gzipped), wherever npm put the package. */
export function defaultDictionaryPath(): string {
  const packageJson = createRequire(import.meta.url).resolve('kuromoji/package.json');
  return path.join(path.dirname(packageJson), 'dict');
}

const KANA_ONLY = /^[\p{Script=Hiragana}\p{Script=Katakana}ー・\s]+$/u;
const KANA_TOKEN = /^[\p{Script=Hiragana}\p{Script=Katakana}ー]+$/u;

/** Full-width katakana, ASCII and spaces to the half-width forms the kana fields hold. */
function toHalfWidth(text: string): string {
  return jaconv
    .toHanKana(jaconv.toHanAscii(text))
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[a-z]/g, (letter) => letter.toUpperCase());
}

/**
 * Kanji (or hiragana) -> half-width katakana, for the kana fields the page fills in on blur
 * (spec section 2, /personal). kuromoji with its IPADIC dictionary reads each word; the answer
 * is a suggestion the applicant corrects, never stored by itself.
 *
 * - Kana-only input is converted directly (no dictionary, so it is never "read" differently).
 * - A word the dictionary has: its reading (山田 -> ﾔﾏﾀﾞ).
 * - A kana word in mixed input: the word itself in katakana.
 * - Anything else (a kanji variant the dictionary lacks such as 髙 or 𠮷, Latin letters,
 *   digits, symbols) is kept as typed, in half-width where one exists: a visibly unread
 *   character makes the field fail its katakana check, which points the applicant at the
 *   gap, where dropping it would yield a plausible but wrong reading.
 * - Runs of spaces become one half-width space (佐藤 花子 -> ｻﾄｳ ﾊﾅｺ); the kana-name
 *   normaliser removes it, the kana address fields allow it.
 *
 * The dictionary takes about a second of CPU and some 200-300 MB of memory to load (typed
 * arrays and heap; measured with Node 20), so it is built once, lazily, by the first caller
 * that needs it (kuromoji itself is imported then too) and kept for the life of the process;
 * concurrent first callers share the one build. The server never builds it before a request
 * asks (plugins/lookups.ts).
 */
export class FuriganaReader {
  readonly dicPath: string;
  private building: Promise<Tokenizer<IpadicFeatures>> | null = null;
  private tokenizer: Tokenizer<IpadicFeatures> | null = null;

  constructor(options: { dicPath?: string } = {}) {
    this.dicPath = options.dicPath ?? defaultDictionaryPath();
  }

  /** Whether the dictionary is loaded (a reading then costs well under a millisecond). */
  get ready(): boolean {
    return this.tokenizer !== null;
  }

  /** Loads the dictionary unless loaded or loading; resolves when it is ready. */
  warm(): Promise<void> {
    return this.load().then(() => undefined);
  }

  async read(text: string): Promise<string> {
    const input = text.normalize('NFKC');
    if (KANA_ONLY.test(input)) return toHalfWidth(jaconv.toKatakana(input));
    const tokenizer = this.tokenizer ?? (await this.load());
    const parts = tokenizer.tokenize(input).map((token) => {
      const surface = token.surface_form;
      if (/^\s+$/u.test(surface)) return ' ';
      if (KANA_TOKEN.test(surface)) return jaconv.toKatakana(surface);
      if (token.reading && token.reading !== '*') return token.reading;
      return surface;
    });
    return toHalfWidth(parts.join(''));
  }

  private load(): Promise<Tokenizer<IpadicFeatures>> {
    if (this.tokenizer) return Promise.resolve(this.tokenizer);
    if (!this.building) {
      const building = buildTokenizer(this.dicPath);
      this.building = building;
      building.then(
        (tokenizer) => {
          this.tokenizer = tokenizer;
        },
        () => {
          // A failed build (e.g. a missing dictionary file) is retried by the next caller.
          if (this.building === building) this.building = null;
        },
      );
    }
    return this.building;
  }
}

/** kuromoji is imported here, not at the top: a process that never reads a name never loads it. */
async function buildTokenizer(dicPath: string): Promise<Tokenizer<IpadicFeatures>> {
  const { default: kuromoji } = await import('kuromoji');
  return new Promise((resolve, reject) => {
    kuromoji.builder({ dicPath }).build((error, tokenizer) => {
      // kuromoji passes null (typed as Error) on success.
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve(tokenizer);
    });
  });
}

const shared = new Map<string, FuriganaReader>();

/**
 * The process's reader for a dictionary folder: every app built in this process (the server,
 * and the many a test file builds) shares one loaded dictionary instead of one each.
 */
export function sharedFuriganaReader(dicPath: string = defaultDictionaryPath()): FuriganaReader {
  let reader = shared.get(dicPath);
  if (!reader) {
    reader = new FuriganaReader({ dicPath });
    shared.set(dicPath, reader);
  }
  return reader;
}
