/**
 * The layer check (npm run test:layers, .dependency-cruiser.cjs) must be able to fail: this
 * runs the very same rules on a tiny tree that breaks every wall once and expects each breach
 * reported by its rule's name. A rule that stopped matching (a renamed folder, a wrong pattern,
 * an import the checker no longer resolves) fails here instead of passing silently.
 */
import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const configFile = resolve(import.meta.dirname, '../../.dependency-cruiser.cjs');

/** One file per breach (and a few that break nothing), as path → contents. */
const fixture: Record<string, string> = {
  'src/domain/reads-a-file.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
  'src/domain/uses-path.ts': "import path from 'path';\nexport const join = path.join;\n",
  'src/domain/uses-react.ts': "import { useState } from 'react';\nexport const state = useState;\n",
  'src/domain/asks-the-server.ts': "import type { Config } from '../server/config';\nexport type Shared = Config;\n",
  'src/domain/cycle-a.ts': "import { b } from './cycle-b';\nexport const a = () => b;\n",
  'src/domain/cycle-b.ts': "import { a } from './cycle-a';\nexport const b = () => a;\n",
  'src/domain/missing.ts': "import { gone } from './not-there';\nexport const x = gone;\n",
  'src/domain/fine.ts': 'export const fine = 1;\n',
  'src/client/page.tsx': "import { secret } from '../server/config';\nimport { fine } from '../domain/fine';\nexport const page = [secret, fine];\n",
  'src/client/runtime/Router.tsx': "import { screens } from '../screens/registry';\nexport const router = screens;\n",
  'src/client/screens/registry.ts': 'export const screens = {};\n',
  'src/server/config.ts': "export const secret = 'x';\nexport interface Config { secret: string }\n",
  'src/server/renders.ts': "import { page } from '../client/page';\nexport const html = page;\n",
  'src/server/runs-the-cli.ts': "import { main } from '../cli/tool';\nexport const run = main;\n",
  'src/cli/tool.ts': "import { secret } from '../server/config';\nimport { lint } from '../flow-tools/lint';\nexport const main = () => [secret, lint];\n",
  'src/flow-tools/lint.ts': "import { fine } from '../domain/fine';\nexport const lint = () => fine;\n",
  'src/flow-tools/asks-the-server.ts': "import { secret } from '../server/config';\nexport const tool = secret;\n",
  'src/domain/lints.ts': "import { lint } from '../flow-tools/lint';\nexport const check = lint;\n",
  'src/client/lints.ts': "import { lint } from '../flow-tools/lint';\nexport const check = lint;\n",
  'src/server/flows/check.ts': "import { lint } from '../../flow-tools/lint';\nexport const check = lint;\n",
  'src/server/routes/lints.ts': "import { lint } from '../../flow-tools/lint';\nexport const check = lint;\n",
  'node_modules/react/package.json': '{"name":"react","main":"index.js"}\n',
  'node_modules/react/index.js': 'exports.useState = () => undefined;\n',
};

let dir: string;
let result: ICruiseResult;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'layers-')));
  for (const [file, contents] of Object.entries(fixture)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), contents);
  }
  const options = await extractDepcruiseOptions(configFile);
  // The repository's tsconfig is not the fixture's; the rules and the resolution are the same.
  delete options.tsConfig;
  const { output } = await cruise(['src'], { ...options, baseDir: dir, validate: true });
  if (typeof output === 'string') throw new Error('dependency-cruiser returned text, not a result');
  result = output;
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Every breach as "rule: from → to", sorted. */
function breaches(): string[] {
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
}

describe('the layer check (.dependency-cruiser.cjs)', () => {
  it('reports each wall the fixture breaks by its rule name, and nothing else', () => {
    // Not reported: the CLI importing the server or the flow tools, the client importing the
    // domain, the flow tools importing the domain, the server's start-up check importing them.
    expect(breaches()).toEqual(
      [
        'cli-is-entry-only: src/server/runs-the-cli.ts → src/cli/tool.ts',
        'client-not-server: src/client/page.tsx → src/server/config.ts',
        'domain-not-node: src/domain/reads-a-file.ts → fs',
        'domain-not-node: src/domain/uses-path.ts → path',
        'domain-not-react-or-dom: src/domain/uses-react.ts → node_modules/react/index.js',
        'domain-only-domain: src/domain/asks-the-server.ts → src/server/config.ts',
        'flow-tools-apart: src/client/lints.ts → src/flow-tools/lint.ts',
        'flow-tools-apart: src/domain/lints.ts → src/flow-tools/lint.ts',
        'flow-tools-only-domain: src/flow-tools/asks-the-server.ts → src/server/config.ts',
        'server-flow-tools-at-start-check: src/server/routes/lints.ts → src/flow-tools/lint.ts',
        // A cycle is reported once, at the edge where the checker first closes it.
        'no-cycles: src/domain/cycle-a.ts → src/domain/cycle-b.ts',
        'no-unresolvable: src/domain/missing.ts → ./not-there',
        'runtime-not-screens: src/client/runtime/Router.tsx → src/client/screens/registry.ts',
        'server-not-client: src/server/renders.ts → src/client/page.tsx',
      ].sort(),
    );
  });

  it('exercises every rule of the configuration', async () => {
    const options = await extractDepcruiseOptions(configFile);
    const ruleNames = (options.ruleSet?.forbidden ?? []).map((rule) => rule.name).sort();
    const reported = [...new Set(result.summary.violations.map((v) => v.rule.name))].sort();
    expect(reported).toEqual(ruleNames);
  });
});
