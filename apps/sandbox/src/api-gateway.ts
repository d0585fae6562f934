import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { APIGatewayInfo } from 'discord-api-types/v10';
import { requireBot } from './api-auth.ts';
import { GATEWAY_PATH } from './gateway.ts';
import type { Gateway } from './gateway.ts';
import type { SandboxState } from './state.ts';

/** The WebSocket URL a client that reached the sandbox this way should use. */
export function gatewayUrl(request: FastifyRequest): string {
  return `${request.protocol === 'https' ? 'wss' : 'ws'}://${request.host}${GATEWAY_PATH}`;
}

/** GET /gateway (no authentication) and GET /gateway/bot (bot token), as on Discord. */
export function registerGatewayRoutes(api: FastifyInstance, state: SandboxState, gateway: Gateway): void {
  api.get('/gateway', async (request): Promise<APIGatewayInfo> => ({ url: gatewayUrl(request) }));

  api.get('/gateway/bot', async (request) => {
    return gateway.botInfo(gatewayUrl(request), requireBot(state, request));
  });
}
