import fc from 'fast-check';

/**
 * What a hostile or broken client sends, as fast-check arbitraries: strings with control
 * characters, lone surrogates and odd widths, numbers beyond every column, wrong types,
 * whole bodies of random JSON or of broken text, duplicated query parameters and broken
 * multipart bodies. Each test request is built from a valid one with some of these in it.
 */

/** Percent-encoding that also carries lone surrogates (as the bytes a broken client sends). */
export function encodeLoose(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(char);
    }
  }
  return out;
}

const nasty = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'a\udc00b',
  '\ud800',
  '\udfff\ud800',
  '\u202e\u0007',
  '\r\n',
  '\t',
  '𠮷野家',
  'Ⅰ Ⅱ Ⅲ',
  '＜＋｜！￥＊；％',
  '㈱テスト',
  'ﾔﾏﾀﾞ\u0000',
  '１２３４５６７',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '__proto__',
  'constructor',
  'null',
  'true',
  '0',
  '-1',
  '1e308',
  'x'.repeat(300),
  '山'.repeat(5000),
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...nasty),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ maxLength: 30 }),
  fc.tuple(fc.constantFrom(...nasty), fc.string({ maxLength: 8 })).map(([a, b]) => a + b),
);

const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -1, 1, 2147483647, 2147483648, -2147483649, 9007199254740992, 1e308, -1e308, 0.5, 5e-324),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value a field may be given instead of the right one. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, hostileString, { maxKeys: 3 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

export interface RawBody {
  contentType: string;
  payload: string | Buffer;
}

/** A JSON body: a valid one with 1 to 3 fields replaced, dropped or added, or something else entirely. */
export function hostileJsonBody(valid: Record<string, unknown>): fc.Arbitrary<RawBody> {
  const keys = Object.keys(valid);
  const mutated = fc
    .array(
      fc.tuple(keys.length > 0 ? fc.oneof(fc.constantFrom(...keys), hostileString) : hostileString, hostileValue, fc.boolean()),
      { minLength: 1, maxLength: 3 },
    )
    .map((edits) => {
      const body: Record<string, unknown> = { ...valid };
      for (const [key, value, drop] of edits) {
        if (drop && key in body) delete body[key];
        else body[key] = value;
      }
      return body;
    });
  const asJson = (value: unknown): RawBody => ({ contentType: 'application/json', payload: JSON.stringify(value) ?? 'null' });
  return fc.oneof(
    { weight: 6, arbitrary: mutated.map(asJson) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map(asJson) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<RawBody>(
        { contentType: 'application/json', payload: '{"a":' },
        { contentType: 'application/json', payload: '{"__proto__":{"isAdmin":true}}' },
        { contentType: 'application/json', payload: '{"constructor":{"prototype":{"x":1}}}' },
        { contentType: 'application/json', payload: '[' .repeat(5000) },
        { contentType: 'application/json', payload: '' },
        { contentType: 'application/json', payload: '\u0000' },
        { contentType: 'application/json; charset=latin1', payload: '{}' },
        { contentType: 'text/plain', payload: 'hello' },
        { contentType: 'application/x-www-form-urlencoded', payload: 'a=1&a=2' },
        { contentType: 'application/xml', payload: '<a/>' },
        { contentType: 'multipart/form-data', payload: '--x--' },
      ),
    },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('application/json', 'text/plain'), hostileString).map(([contentType, payload]) => ({ contentType, payload })) },
  );
}

/** A query string: the route's parameters (and others) with hostile values, some given twice. */
export function hostileQuery(names: string[]): fc.Arbitrary<string> {
  const name = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names, 'x') }, { weight: 1, arbitrary: hostileString });
  const pair = fc.tuple(name, hostileString).map(([key, value]) => `${encodeLoose(key)}=${encodeLoose(value)}`);
  const raw = fc.constantFrom('%', '%zz', '&&', '=', '==&', `${names[0] ?? 'x'}[]=1`, `${names[0] ?? 'x'}[a]=1`, '%00=%00', '%F0%9F');
  return fc.array(fc.oneof({ weight: 4, arbitrary: pair }, { weight: 1, arbitrary: raw }), { minLength: 0, maxLength: 4 }).map((parts) => parts.join('&'));
}

/** A multipart body: parts with hostile names, values and files, or a broken framing. */
export function hostileMultipart(validImage: Buffer, validType: string): fc.Arbitrary<RawBody> {
  const boundary = 'fuzzboundary';
  const part = fc.oneof(
    fc.tuple(fc.constantFrom('type', 'image', 'x'), hostileString).map(
      ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    ),
    fc.constant(`--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\n${validType}\r\n`),
    fc.tuple(fc.constantFrom('image', 'other'), fc.constantFrom('image/png', 'image/jpeg', 'text/html', ''), fc.uint8Array({ maxLength: 64 })).map(
      ([name, type, bytes]) =>
        Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="a.png"\r\nContent-Type: ${type}\r\n\r\n`),
          Buffer.from(bytes),
          Buffer.from('\r\n'),
        ]).toString('latin1'),
    ),
    // The valid image cut short, or with garbage after it.
    fc.tuple(fc.nat({ max: validImage.length }), fc.boolean()).map(([cut, tail]) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
        tail ? Buffer.concat([validImage, Buffer.from('<html></html>')]) : validImage.subarray(0, cut),
        Buffer.from('\r\n'),
      ]).toString('latin1'),
    ),
  );
  const framed = fc.tuple(fc.array(part, { minLength: 0, maxLength: 4 }), fc.constantFrom(`--${boundary}--\r\n`, '', `--${boundary}`, '--other--\r\n'));
  const contentType = fc.constantFrom(
    `multipart/form-data; boundary=${boundary}`,
    `multipart/form-data; boundary=${boundary}`,
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'multipart/form-data; boundary=other',
    'multipart/mixed; boundary=fuzzboundary',
    'application/octet-stream',
  );
  return fc.tuple(framed, contentType).map(([[parts, end], type]) => ({ contentType: type, payload: Buffer.from(parts.join('') + end, 'latin1') }));
}
