/**
 * npm run flows:check [files...]  —  lints the flow files (default: every flow in FLOWS_DIR, else
 * ./flows, but the schema; the forms of SCHEMAS_DIR, else ./schemas) and prints one line per problem (file:line JSON-path: message) and
 * exits 1, or prints a summary and exits 0. Named files are checked against the other flows.
 */
import { formatProblem } from '../flow-tools/lint';
import { checkFlowFiles, repositoryRoot } from '../server/flows/check';

const started = performance.now();
try {
  // The folder the server runs (FLOWS_DIR, src/server/config.ts); unset: the check's own default.
  const flowsDir = process.env.FLOWS_DIR?.trim() || undefined;
  const { problems, summary } = checkFlowFiles(process.argv.slice(2), repositoryRoot, flowsDir, process.env.SCHEMAS_DIR?.trim() || undefined);
  if (problems.length > 0) {
    for (const p of problems) console.error(formatProblem(p));
    console.error(`${problems.length} problem${problems.length === 1 ? '' : 's'} in the flows`);
    process.exitCode = 1;
  } else {
    console.log(`flows ok: ${summary.join(', ')} in ${Math.round(performance.now() - started)} ms`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
