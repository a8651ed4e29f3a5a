import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerConfig } from '../config.js';
import { loadFormCatalogue } from '../forms/catalogue.js';

/** Decorates `app.forms`: the forms of SCHEMAS_DIR (forms/catalogue.ts), read once at start. */
const forms: FastifyPluginAsync<{ config: ServerConfig }> = async (app, options) => {
  app.decorate('forms', loadFormCatalogue(options.config.schemasDir));
};

export default fp(forms, { name: 'forms', fastify: '5.x' });
