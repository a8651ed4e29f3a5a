import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { VersionedFlow } from '../../domain/flow/types.js';
import type { ServerConfig } from '../config.js';
import { assertFlowsValid } from '../flows/check.js';
import { impactLine, moveStranded } from '../flows/stranded.js';
import { FlowVersions } from '../flows/versions.js';

/**
 * Decorates `app.flowVersions`: the linted flows of FLOWS_DIR (the same the pages run), served
 * to new applicants, and every older version that applications still run (flows/versions.ts).
 * At start it writes this process's versions into the database, drops the unused, and reads
 * the kept ones (logging any whose forms SCHEMAS_DIR lost), and moves or reports the applicants
 * at a state the served flows removed (flows/stranded.ts).
 */
const flows: FastifyPluginAsync<{ config: ServerConfig; flows?: VersionedFlow[] }> = async (app, options) => {
  const loaded = options.flows ?? assertFlowsValid(options.config.flowsDir, options.config.schemasDir).versioned;
  const versions = new FlowVersions(app.db, app.forms, app.now, loaded);
  const dropped = await versions.maintain();
  const { kept, problems } = await versions.readKept();
  for (const problem of problems) app.log.error(`a kept flow version cannot serve its applicants: ${problem}`);
  const short = (version: string) => version.slice(0, 12);
  app.log.info(
    `flow versions: serving ${versions
      .current()
      .map((v) => `${v.flow.id} ${short(v.version)}`)
      .join(', ')}; kept ${kept}; dropped ${dropped.length ? dropped.map(short).join(', ') : 'none'}`,
  );
  // Applicants at a state the served flows removed: moved when meta.movedStates maps it, else counted (ADR 0032).
  for (const { group, moved } of await moveStranded(app.db, versions.current())) {
    if (group.movedTo) app.log.info(impactLine(group, moved));
    else app.log.warn(impactLine(group));
  }
  app.decorate('flowVersions', versions);
};

export default fp(flows, { name: 'flows', fastify: '5.x', dependencies: ['forms', 'database'] });
