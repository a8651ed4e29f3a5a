import { chmod, lstat, unlink } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { runOperatorCommand, type OperatorResult } from '../operator/commands.js';
import { operatorSocketRoute } from '../operator/socket-path.js';

/**
 * The operator channel: `npm run operator -- …` hands its command to the running server over
 * a Unix domain socket, and the server runs it on its own database. With the embedded PGlite
 * only one process may open DATA_DIR/pglite, so without this channel operators would have to
 * stop the service to announce a maintenance window.
 *
 * Security: no TCP port is opened; the socket is a file in DATA_DIR with mode 0600. Who may
 * run operator commands is therefore decided by file permissions: whoever can write to the
 * socket is the user running the server (or root), the same people who could open
 * DATA_DIR/pglite, read DATA_DIR/secrets.json and write the database directly. Between bind
 * and chmod the socket briefly carries the umask's mode; DATA_DIR itself must not be
 * accessible to other users (it holds the database and the secrets), which covers that
 * moment. There is no further authentication, and none would add anything.
 *
 * Lifecycle: at registration (before the database opens) a socket left at the path is
 * probed. If a server answers on it, another server is running on this DATA_DIR and this one
 * refuses to start, as a second process would damage the PGlite files; a stale socket of a
 * server that died is removed. The socket listens once the app is ready and is closed and
 * removed before the app closes its database.
 */

export interface OperatorSocketOptions {
  /** Path of the socket file, normally DATA_DIR/operator.sock (see operatorSocketPath). */
  path: string;
}

/** Largest accepted request body: an argv of a few options and a notice text. */
const MAX_BODY_BYTES = 64 * 1024;
/** sun_path of struct sockaddr_un is 108 bytes on Linux, including the terminating NUL. */
const MAX_SOCKET_PATH_BYTES = 107;

type Probe = 'absent' | 'stale' | 'live';

/** Whether a server listens on the socket at `path`. */
async function probe(path: string): Promise<Probe> {
  let stats;
  try {
    stats = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw error;
  }
  if (!stats.isSocket()) throw new Error(`${path} exists and is not a socket: remove it or choose another DATA_DIR`);
  return new Promise((resolve, reject) => {
    const connection = net.connect(path);
    connection.once('connect', () => {
      connection.destroy();
      resolve('live');
    });
    connection.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') resolve('stale');
      else if (error.code === 'ENOENT') resolve('absent');
      else reject(new Error(`cannot check the operator socket ${path}: ${error.message}`));
    });
  });
}

function answer(response: http.ServerResponse, status: number, body: OperatorResult | { message: string }): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function readBody(request: http.IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(null);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function argvOf(text: string): string[] | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  const argv = (body as { argv?: unknown } | null)?.argv;
  return Array.isArray(argv) && argv.length <= 64 && argv.every((arg): arg is string => typeof arg === 'string') ? argv : null;
}

const operatorSocket: FastifyPluginAsync<OperatorSocketOptions> = async (app, { path }) => {
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES) {
    throw new Error(`operator socket path ${path} is longer than ${MAX_SOCKET_PATH_BYTES} bytes: choose a shorter DATA_DIR`);
  }
  const found = await probe(path);
  if (found === 'live') {
    throw new Error(`another server is running on this DATA_DIR (it answers on ${path}); stop it first`);
  }
  if (found === 'stale') await unlink(path);

  const server = http.createServer((request, response) => {
    if (request.url !== operatorSocketRoute) return answer(response, 404, { message: `only POST ${operatorSocketRoute}` });
    if (request.method !== 'POST') return answer(response, 405, { message: `only POST ${operatorSocketRoute}` });
    void (async () => {
      const text = await readBody(request);
      const argv = text === null ? null : argvOf(text);
      if (!argv) return answer(response, 400, { message: 'expected JSON { "argv": string[] }' });
      // The route, not the arguments: a notice's text is the bank's, but it has no place in logs.
      const command = argv.filter((arg) => !arg.startsWith('-')).slice(0, 2).join(' ');
      try {
        // app.db, app.banks and app.flowVersions are decorated by plugins registered after this one; they exist
        // by the time the socket listens (onReady).
        const result = await runOperatorCommand(argv, {
          db: app.db,
          isBank: (code) => Boolean(app.banks.get(code)),
          servedFlows: () => app.flowVersions.current(),
          changed: (table) => app.changes.changed(table),
        });
        app.log.info({ operatorCommand: command, exitCode: result.exitCode }, 'operator command');
        answer(response, 200, result);
      } catch (error) {
        app.log.error({ err: error, operatorCommand: command }, 'operator command failed');
        answer(response, 500, { message: error instanceof Error ? error.message : String(error) });
      }
    })().catch((error: unknown) => {
      app.log.error({ err: error }, 'operator socket request failed');
      if (!response.headersSent) answer(response, 500, { message: 'request failed' });
      else response.destroy();
    });
  });

  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
    await chmod(path, 0o600);
    server.on('error', (error) => app.log.error({ err: error }, 'operator socket error'));
    app.log.info({ operatorSocket: path }, 'operator socket ready');
  });

  // preClose runs before the onClose hooks, so the database is still open while a command
  // that already arrived completes; close() waits for it, then removes the socket file.
  app.addHook('preClose', async () => {
    if (!server.listening) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    await unlink(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  });
};

export default fp(operatorSocket, { name: 'operator-socket', fastify: '5.x' });
