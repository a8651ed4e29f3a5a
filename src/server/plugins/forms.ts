import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerConfig } from '../config.js';
import { loadFormCatalogue } from '../forms/catalogue.js';
import { validator } from '../validation.js';

/** Decorates `app.forms`: the forms of SCHEMAS_DIR (forms/catalogue.ts), read and compiled once at start. */
const forms: FastifyPluginAsync<{ config: ServerConfig }> = async (app, options) => {
  const catalogue = loadFormCatalogue(options.config.schemasDir);
  // Every validator now, so a schema ajv refuses stops the start instead of answering 500 later.
  for (const name of catalogue.keys()) validator(`${name}.schema.json`, options.config.schemasDir);
  app.decorate('forms', catalogue);
};

export default fp(forms, { name: 'forms', fastify: '5.x' });
