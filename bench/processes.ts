/**
 * bench/load.ts's processes: the servers it starts (the built server with the probe, a bare
 * Fastify), their CPU time and memory from /proc (Linux), PostgreSQL's CPU, the probe's
 * answers, the driver's own event-loop delay, and the plain GET loop of the cheap routes.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { Agent, get as httpGet } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import pg from 'pg';
import { PROBE_MESSAGES, type ProbeAnswer } from './probe-protocol.js';

const root = fileURLToPath(new URL('../', import.meta.url));

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

// ---- processes: CPU and memory from /proc ------------------------------------------------

/** utime, stime, cutime, cstime of a process in ms (fields 14-17 of /proc/<pid>/stat). */
export async function cpuTimes(pid: number): Promise<{ own: number; children: number; ppid: number }> {
  return statTimes(`/proc/${pid}/stat`);
}

async function statTimes(file: string): Promise<{ own: number; children: number; ppid: number }> {
  const stat = await readFile(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tick = (index: number) => (Number(fields[index - 3]) * 1000) / CLOCK_TICKS;
  return { own: tick(14) + tick(15), children: tick(16) + tick(17), ppid: Number(fields[1]) };
}

export async function cpuMs(pid: number): Promise<number> {
  return (await cpuTimes(pid)).own;
}

/**
 * The CPU time of a process's main thread in ms: the event loop, which one process's rate is
 * bound by (the rest is libuv's thread pool, V8's compiler and garbage-collector threads).
 */
export async function mainThreadCpuMs(pid: number): Promise<number> {
  return (await statTimes(`/proc/${pid}/task/${pid}/stat`)).own;
}

export async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/**
 * PostgreSQL's CPU so far when it runs on this machine: its postmaster (with the time of its
 * ended backends) and every live backend. null when the server is elsewhere or /proc is closed.
 */
export async function postgresCpuMs(url: string): Promise<number | null> {
  try {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const backend = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
    // While this connection lives: its backend's parent is the postmaster.
    const postmaster = backend ? (await cpuTimes(backend)).ppid : null;
    await client.end();
    if (!postmaster) return null;
    return await processTreeCpuMs(postmaster);
  } catch {
    return null;
  }
}

/** The CPU time of a process and all its children, live or ended, in ms (PostgreSQL's postmaster, a cluster's primary). */
export async function processTreeCpuMs(pid: number): Promise<number> {
  const times = await cpuTimes(pid);
  return times.own + times.children + (await childrenCpuMs(pid));
}

/** The CPU time of the live children of `parent`, in ms (those that ended count in its own `children`). */
export async function childrenCpuMs(parent: number): Promise<number> {
  let total = 0;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const times = await cpuTimes(Number(entry)).catch(() => null);
    if (times?.ppid === parent) total += times.own;
  }
  return total;
}

// ---- the cheap routes -------------------------------------------------------------------

/**
 * A simple concurrent GET loop (autocannon is not among our packages): `connections` kept-alive
 * connections, each sending its next request when the answer is read; requests/s and errors.
 * node:http rather than fetch: it costs the driver less CPU per request, and driver and server
 * share this machine's cores.
 */
export async function hammer(url: string, status: number, connections: number, seconds: number): Promise<{ perSecond: number; errors: number; requests: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const once = () =>
    new Promise<number>((resolve) => {
      const request = httpGet(url, { agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(0));
      });
      request.on('error', () => resolve(0));
    });
  let requests = 0;
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        if ((await once()) === status) requests += 1;
        else errors += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return { perSecond: requests / elapsed, errors, requests };
}

// ---- servers -------------------------------------------------------------------------------

export interface Started {
  child: ChildProcess;
  pid: number;
  base: string;
  startMs: number;
  stderr: string[];
  stop(): Promise<void>;
}

export async function startProcess(args: string[], port: number, extraEnv: Record<string, string>, readyUrl: string): Promise<Started> {
  const spawned = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...extraEnv },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const stderr: string[] = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr.push(chunk.toString());
    if (stderr.length > 50) stderr.shift();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}: ${stderr.join('')}`);
    try {
      if ((await fetch(base + readyUrl)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - spawned > 60_000) throw new Error(`${args.join(' ')} did not answer within 60 s: ${stderr.join('')}`);
    await sleep(20);
  }
  return {
    child,
    pid: child.pid ?? 0,
    base,
    startMs: performance.now() - spawned,
    stderr,
    stop: async () => {
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/** Sends the probe one IPC message and waits for its answer. */
function toProbe(server: Started, message: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the probe did not answer')), 5_000);
    server.child.once('message', (answer: unknown) => {
      clearTimeout(timer);
      resolve(answer);
    });
    server.child.send(message);
  });
}

/** The probe's count of SQL statements the server has sent so far, and its event loop's delay since the last call. */
export async function askProbe(server: Started): Promise<ProbeAnswer> {
  return (await toProbe(server, PROBE_MESSAGES.ask)) as ProbeAnswer;
}

/** Turns the probe's count by route on or off (bench/server-probe.ts says why it costs). */
export async function probeByRoute(server: Started, on: boolean): Promise<void> {
  const message = on ? PROBE_MESSAGES.routesOn : PROBE_MESSAGES.routesOff;
  const answer = await toProbe(server, message);
  if (answer !== message) throw new Error(`the probe answered ${JSON.stringify(answer)} to ${message}`);
}

/** The driver's own event-loop delay while it runs: a stall here would show in every latency. */
export function driverLoopDelay(): { stop(): { p99: number; max: number } } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return {
    stop: () => {
      histogram.disable();
      return { p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 };
    },
  };
}

/** The probe, compiled for the server process (which runs plain node, no tsx). */
export async function compileProbe(): Promise<string> {
  const outfile = path.join(root, 'dist', 'bench', 'server-probe.mjs');
  await build({ entryPoints: [path.join(root, 'bench', 'server-probe.ts')], bundle: true, packages: 'external', platform: 'node', format: 'esm', outfile, logLevel: 'warning' });
  return outfile;
}

