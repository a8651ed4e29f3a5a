import { request as httpRequest } from 'node:http';

/**
 * The test as the applicant's browser against a server listening on a loopback port: it
 * follows each redirect by hand with a cookie jar (cookies are per host, not per port, as in a
 * browser), sending every request to that port under the URL's own Host header.
 */

export interface Answer {
  status: number;
  /** Where it redirects; /no-location when it does not. */
  location: URL;
  body: string;
  /** The Content-Security-Policy header, if any. */
  policy: string;
}

export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(private readonly port: number) {}

  /** Sends to the server on `port` (another process than the default one), the URL's Host header kept. */
  send(url: URL, method = 'GET', form?: Record<string, string>, port = this.port): Promise<Answer> {
    const body = form ? new URLSearchParams(form).toString() : undefined;
    const headers: Record<string, string> = { host: url.host };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: `${url.pathname}${url.search}`, method, headers }, (res) => {
        for (const cookie of res.headers['set-cookie'] ?? []) {
          const [pair = ''] = cookie.split(';');
          const [name = '', value = ''] = pair.split('=');
          if (value === '' || /expires=Thu, 01 Jan 1970/i.test(cookie)) this.cookies.delete(name);
          else this.cookies.set(name, value);
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            location: new URL(res.headers.location ?? '/no-location', url),
            body: Buffer.concat(chunks).toString('utf8'),
            policy: String(res.headers['content-security-policy'] ?? ''),
          }),
        );
      });
      req.on('error', reject);
      req.end(body);
    });
  }
}
