/**
 * The client side of the operator socket: `npm run operator` hands its command to a server
 * that listens on DATA_DIR/operator.sock (../plugins/operator-socket.ts is the other side).
 */
import http from 'node:http';
import type { OperatorResult } from './commands.js';
import { operatorSocketRoute } from './socket-path.js';

function isOperatorResult(value: unknown): value is OperatorResult {
  if (typeof value !== 'object' || value === null) return false;
  const { exitCode, lines } = value as Partial<Record<keyof OperatorResult, unknown>>;
  return Number.isInteger(exitCode) && Array.isArray(lines) && lines.every((line) => typeof line === 'string');
}

/**
 * Hands a command to the server listening on the socket. Null when no server is there: no
 * socket file (ENOENT) or a stale one left by a server that died (ECONNREFUSED); only then may
 * the caller open the database itself. Any other failure (no permission, a reset connection,
 * no answer in time) throws: the server may be running, and a second process on its PGlite
 * directory would damage the database.
 */
export async function sendToRunningServer(
  socketPath: string,
  argv: string[],
  timeoutMs = 60_000,
): Promise<OperatorResult | null> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ argv });
    const request = http.request(
      {
        socketPath,
        path: operatorSocketRoute,
        method: 'POST',
        // One request per connection: a kept-alive socket would hold the command open.
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          let answer: unknown;
          try {
            answer = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            reject(new Error(`the running server answered ${response.statusCode} with no JSON`));
            return;
          }
          if (response.statusCode === 200 && isOperatorResult(answer)) resolve(answer);
          else {
            const message = (answer as { message?: unknown } | null)?.message;
            reject(new Error(`the running server failed the command: ${typeof message === 'string' ? message : response.statusCode}`));
          }
        });
      },
    );
    request.setTimeout(timeoutMs, () => {
      request.destroy(
        new Error(`the running server did not answer within ${timeoutMs / 1000} s (the command may still complete; check with "list")`),
      );
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(null);
      else if (error.code === 'EACCES') reject(new Error(`no permission to use ${socketPath}: run this as the user that owns DATA_DIR`));
      else reject(error);
    });
    request.end(body);
  });
}
