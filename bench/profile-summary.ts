/**
 * npx tsx bench/profile-summary.ts <file.cpuprofile> [top] [last-seconds]
 *
 * Summarises a V8 CPU profile (node --cpu-prof; bench/load.ts writes the server's with
 * LOAD_CPU_PROF_DIR) by self time: per package (the node_modules folder, or "ours" for
 * dist/server, "node" for node: internals, and V8's own (garbage collector), (program), (idle)),
 * then the top functions with their package. Percentages are of the non-idle time. With
 * last-seconds only the samples of the profile's last that many seconds count (bench/load.ts's
 * saturation phase is its server's last LOAD_SECONDS, before it is stopped).
 */
import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1] ?? ''}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return 'node';
  if (url.includes('/dist/server/')) return 'ours';
  return url;
}

function add(map: Map<string, number>, key: string, micros: number): void {
  map.set(key, (map.get(key) ?? 0) + micros);
}

function top(map: Map<string, number>, total: number, count: number): string[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, micros]) => `${((micros / total) * 100).toFixed(1).padStart(5)} %  ${(micros / 1000).toFixed(0).padStart(7)} ms  ${key}`);
}

async function main(): Promise<void> {
  const [file, topArg, lastArg] = process.argv.slice(2);
  if (!file) throw new Error('usage: bench/profile-summary.ts <file.cpuprofile> [top]');
  const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfById = new Map<number, number>();
  const ends: number[] = [];
  profile.timeDeltas.reduce((at, delta, index) => (ends[index] = at + delta), 0);
  const from = lastArg ? (ends.at(-1) ?? 0) - Number(lastArg) * 1e6 : -Infinity;
  profile.samples.forEach((id, index) => {
    if ((ends[index] ?? 0) >= from) selfById.set(id, (selfById.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const packages = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  for (const [id, micros] of selfById) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)') continue;
    const pkg = packageOf(frame.url, frame.functionName);
    total += micros;
    add(packages, pkg, micros);
    const file = frame.url.split('/').pop() ?? '';
    add(functions, `${frame.functionName || '(anonymous)'} ${pkg} ${file}:${frame.lineNumber + 1}`, micros);
  }
  console.log(`non-idle: ${(total / 1000).toFixed(0)} ms\n-- by package (self time)`);
  for (const line of top(packages, total, 25)) console.log(line);
  console.log('-- by function (self time)');
  for (const line of top(functions, total, Number(topArg ?? 40))) console.log(line);
}

await main();
