/**
 * npm run seed: writes banks/<code>/{occupations,branches,workplaces,invitations}.json into the
 * database (src/server/masterdata/seed.ts) without starting the server, e.g. to check edited
 * files or to update a PostgreSQL database that several servers share. It always rewrites every
 * bank (a repair after rows were changed by hand); a server start seeds only the banks whose
 * files changed since their last seed, so with one server a restart is enough after an edit.
 *
 * Database: DATABASE_URL when set, else DATA_DIR/pglite. PGlite allows one process per data
 * directory, so with PGlite this refuses to run while a server answers on DATA_DIR's operator
 * socket: restart that server instead (it seeds on start).
 */
import net from 'node:net';
import { pathToFileURL } from 'node:url';
import { loadBanks } from '../server/banks/registry.js';
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/index.js';
import { loadMasterData } from '../server/masterdata/load.js';
import { fingerprintsOf, seedMasterData } from '../server/masterdata/seed.js';
import { operatorSocketPath } from '../server/operator/socket-path.js';

/** Whether a server listens on the socket (ENOENT / ECONNREFUSED: none, or a stale file). */
function serverListening(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      // Any other failure (e.g. EACCES) may hide a running server: err on the safe side.
      resolve(error.code !== 'ENOENT' && error.code !== 'ECONNREFUSED');
    });
  });
}

export async function runSeed(env: NodeJS.ProcessEnv = process.env, out: (line: string) => void = console.log): Promise<number> {
  const config = loadConfig(env);
  const banks = await loadBanks(config.banksDir);
  const codes = banks.all().map((bank) => bank.code);
  // Hashed before read (as at start: a file edited in between is seeded again next time), and
  // read and checked before touching the database: a broken file changes nothing.
  const fingerprints = await fingerprintsOf(config.banksDir, codes);
  const data = loadMasterData(config.banksDir, codes);
  const socketPath = operatorSocketPath(config);
  if (socketPath && (await serverListening(socketPath))) {
    out(`A server is running on ${config.dataDir} (${socketPath}); restart it instead: it seeds the master data at every start.`);
    return 1;
  }
  const { db, close, kind } = await openDatabase(config);
  try {
    for (const bank of await seedMasterData(db, data, { fingerprints, force: true })) {
      out(
        `${bank.bankCode}: ${bank.occupations} occupations, ${bank.branches} branches, ${bank.workplaces} workplaces, ${bank.invitations} invitation codes`,
      );
    }
    out(`master data written (${kind === 'postgres' ? 'DATABASE_URL' : `${config.dataDir}/pglite`})`);
    return 0;
  } finally {
    await close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runSeed().then(
    (exitCode) => {
      process.exitCode = exitCode;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
