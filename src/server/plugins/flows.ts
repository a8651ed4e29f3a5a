import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { FlowConfig } from '../../domain/flow/types.js';
import type { ServerConfig } from '../config.js';
import { assertFlowsValid } from '../flows/check.js';
import { requiredFormsByType } from '../forms/stored.js';

/**
 * Decorates `app.flows` (the linted flows of FLOWS_DIR, the same the pages run) and
 * `app.requiredForms`, the forms each application type must have stored before completion,
 * read from its flow.
 */
const flows: FastifyPluginAsync<{ config: ServerConfig; flows?: FlowConfig[] }> = async (app, options) => {
  const loaded = options.flows ?? assertFlowsValid(options.config.flowsDir, options.config.schemasDir).flows;
  app.decorate('flows', loaded);
  app.decorate('requiredForms', requiredFormsByType(loaded, app.forms));
};

export default fp(flows, { name: 'flows', fastify: '5.x', dependencies: ['forms'] });
