/**
 * npm run flows:diagram [-- --out <dir>] [files...]  —  writes a diagram of each flow file
 * (default: every flow in FLOWS_DIR, else ./flows) as <dir>/<flow>.mmd (Mermaid text) and <dir>/<flow>.svg
 * (default dir: ./diagrams, git-ignored). The flows are linted first, exactly as by
 * npm run flows:check: a broken flow is reported and nothing is drawn.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { flowDiagram } from '../flow-tools/diagram';
import { formatProblem } from '../flow-tools/lint';
import type { Json } from '../domain/flow/model';
import { checkFlowFiles, repositoryRoot, shippedFlowFiles } from '../server/flows/check';

/** A path as the user would type it: relative inside the working directory, absolute outside. */
function shown(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel.startsWith('..') ? file : rel;
}

const usage = 'usage: npm run flows:diagram [-- --out <dir>] [flow files...]   (default: every flow, into ./diagrams)';

function parseArguments(args: string[]): { out: string; files: string[] } {
  let out = 'diagrams';
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--out') {
      const dir = args[++i];
      if (dir === undefined || dir === '') throw new Error(`--out needs a directory\n${usage}`);
      out = dir;
    } else if (arg.startsWith('--out=')) out = arg.slice('--out='.length);
    else if (arg === '--help' || arg === '-h') throw new Error(usage);
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}\n${usage}`);
    else files.push(arg);
  }
  return { out, files };
}

try {
  const { out, files } = parseArguments(process.argv.slice(2));
  // The folder the server runs (FLOWS_DIR, src/server/config.ts); unset: the check's own default.
  const flowsDir = process.env.FLOWS_DIR?.trim() || undefined;
  const { problems } = checkFlowFiles(files, repositoryRoot, flowsDir, process.env.SCHEMAS_DIR?.trim() || undefined);
  if (problems.length > 0) {
    for (const p of problems) console.error(formatProblem(p));
    throw new Error(`${problems.length} problem${problems.length === 1 ? '' : 's'} in the flows: no diagram written (fix them first; npm run flows:check)`);
  }
  const dir = resolve(out);
  mkdirSync(dir, { recursive: true });
  const selected = files.length > 0 ? files.map((f) => resolve(f)) : shippedFlowFiles(flowsDir);
  for (const file of selected) {
    const name = basename(file, '.json');
    const { mermaid, svg } = flowDiagram(JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')) as Json);
    const mermaidFile = join(dir, `${name}.mmd`);
    const svgFile = join(dir, `${name}.svg`);
    writeFileSync(mermaidFile, mermaid);
    writeFileSync(svgFile, svg);
    console.log(`${name}: ${[mermaidFile, svgFile].map(shown).join(', ')}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
