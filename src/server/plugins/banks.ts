import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { loadBanks, type BankRegistry } from '../banks/registry.js';
import type { ServerConfig } from '../config.js';
import { httpMessages } from '../http-messages.js';

/**
 * Decorates `app.banks` (the registry of banks/) and `request.bank`, the bank the Host header
 * names (the service is one deployment answering for the three banks' host names).
 */
const banks: FastifyPluginAsync<{ config: ServerConfig; registry?: BankRegistry }> = async (app, { config, registry }) => {
  const resolved = registry ?? (await loadBanks(config.banksDir));
  app.decorate('banks', resolved);
  app.decorateRequest('bank', null);
  app.addHook('onRequest', async (request) => {
    // request.host is the Host header (X-Forwarded-Host only with TRUST_PROXY). Production
    // trusts only the banks' own host names: "0587.attacker.example" must not get bank 0587.
    request.bank = resolved.resolveHost(request.host, config.defaultBank, config.production) ?? null;
  });
};

export default fp(banks, { name: 'banks', fastify: '5.x' });

/** preHandler of the API routes that act for a bank: 404 when the host belongs to none. */
export async function requireBank(request: FastifyRequest, reply: FastifyReply) {
  // Returning the reply ends the hook chain (Fastify: "Respond to a request from a hook").
  if (!request.bank) return reply.code(404).send({ message: httpMessages.unknownBank });
}
