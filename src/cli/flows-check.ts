/**
 * npm run flows:check [files...]  —  lints the flow files (default: every flows/*.json but the
 * schema) and prints one line per problem (file:line JSON-path: message) and exits 1, or prints
 * a summary and exits 0. Named files are checked against the shipped flows.
 */
import { formatProblem } from '../domain/flow/lint';
import { checkFlowFiles } from '../server/flows/check';

const started = performance.now();
try {
  const { problems, warnings, summary } = checkFlowFiles(process.argv.slice(2));
  for (const warning of warnings) console.warn(warning);
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
