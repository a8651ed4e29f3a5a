import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';

/**
 * A server process a bench starts the way an operator does (`node <file>`), with the time from
 * spawn to its first 200 and its memory as the kernel counts it (VmRSS: what the machine pays,
 * including PGlite's WebAssembly memory and the typed arrays outside the V8 heap).
 */
export interface Spawned {
  child: ChildProcess;
  /** ms from spawn() to the first 200 on `probe`. */
  firstAnswerMs: number;
  /** Every line the process wrote (stdout and stderr), for a failure's message. */
  output: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `node args…` with env on top of ours and polls `probe` every 10 ms until it answers 200. */
export async function spawnUntilAnswer(args: string[], env: Record<string, string>, probe: string, timeoutMs = 60_000): Promise<Spawned> {
  const output: string[] = [];
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}) before answering:\n${output.join('')}`);
    const status = await fetch(probe).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status;
      },
      () => 0,
    );
    if (status === 200) return { child, firstAnswerMs: performance.now() - started, output };
    await sleep(10);
  }
  child.kill('SIGKILL');
  throw new Error(`no 200 from ${probe} within ${timeoutMs} ms:\n${output.join('')}`);
}

/** The process's resident set now and its peak so far, in MB (Linux /proc). */
export async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** SIGTERM, and SIGKILL if it has not ended within 10 s. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await ended;
  clearTimeout(timer);
}

export { sleep };
