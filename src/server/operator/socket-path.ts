/** Where the server and `npm run operator` meet: the operator socket's path and its route. */
import path from 'node:path';
import type { ServerConfig } from '../config.js';

/** The HTTP path of the operator socket's one route. */
export const operatorSocketRoute = '/run';

/**
 * Where a server listens for operator commands: DATA_DIR/operator.sock. None with DATA_DIR
 * ':memory:' (nothing on disk to meet at) or with DATABASE_URL: PostgreSQL takes any number of
 * connections, so the command connects directly, and several servers may then share one
 * DATA_DIR, which one socket path could not serve.
 */
export function operatorSocketPath(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>): string | null {
  if (config.databaseUrl || config.dataDir === ':memory:') return null;
  return path.join(config.dataDir, 'operator.sock');
}
