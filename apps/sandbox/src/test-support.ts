import type { FastifyInstance } from 'fastify';
import { createSandbox } from './index.ts';
import type { ConfigureOptions } from './sandbox-config.ts';
import type { SandboxState } from './state.ts';

export const CLIENT_ID = '1100000000000000001';
export const CLIENT_SECRET = 'sandbox-client-secret';
export const BOT_TOKEN = 'sandbox-bot-token';
export const BOT_ID = '1100000000000000001';
export const REDIRECT_URI = 'http://localhost:5173/auth/callback';

export const USERS = {
  alice: '1200000000000000001',
  bruno: '1200000000000000002',
  chen: '1200000000000000003',
  dana: '1200000000000000004',
  eli: '1200000000000000005',
} as const;

export const GUILDS = {
  pixelForge: '1300000000000000001',
  nightOwls: '1300000000000000002',
  studyHall: '1300000000000000003',
  quietGarden: '1300000000000000004',
} as const;

export const CHANNELS = {
  infoCategory: '1300000000000000101',
  announcements: '1300000000000000103',
  openTicket: '1300000000000000105',
  helpForum: '1300000000000000106',
  staffRoom: '1300000000000000107',
  ticketArchive: '1300000000000000108',
  general: '1300000000000000110',
  lounge: '1300000000000000113',
  modLog: '1300000000000000115',
  gardenGeneral: '1300000000000000902',
} as const;

export interface TestSandbox {
  app: FastifyInstance;
  state: SandboxState;
  publicKey: string;
  configure(options: ConfigureOptions): void;
  clock: { now: number; advance(ms: number): void };
}

/** A sandbox on a hand-driven clock, so expiry tests need no waiting. */
export async function makeSandbox(): Promise<TestSandbox> {
  const clock = {
    now: Date.parse('2025-01-15T12:00:00.000Z'),
    advance(ms: number) {
      clock.now += ms;
    },
  };
  const { app, state, publicKey, configure } = await createSandbox({ now: () => clock.now });
  return { app, state, publicKey, configure, clock };
}

export const bot = { authorization: `Bot ${BOT_TOKEN}` };
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function authorizeQuery(extra: Record<string, string> = {}): string {
  return new URLSearchParams({
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'identify guilds',
    state: 'state-123',
    ...extra,
  }).toString();
}

/** Presses "Authorize as …" for a user and returns the code from the redirect. */
export async function approve(app: FastifyInstance, userId: string, scope = 'identify guilds'): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/oauth2/authorize',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope,
      state: 'state-123',
      user_id: userId,
      action: 'authorize',
    }).toString(),
  });
  if (res.statusCode !== 302) throw new Error(`authorize answered ${res.statusCode}: ${res.body}`);
  const code = new URL(String(res.headers.location)).searchParams.get('code');
  if (!code) throw new Error('no code in redirect');
  return code;
}

export async function exchange(app: FastifyInstance, form: Record<string, string>) {
  return app.inject({
    method: 'POST',
    url: '/api/v10/oauth2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, ...form }).toString(),
  });
}

/** The whole browser + server dance, for tests that only need a user's access token. */
export async function loginAs(app: FastifyInstance, userId: string, scope = 'identify guilds'): Promise<{ access_token: string; refresh_token: string }> {
  const code = await approve(app, userId, scope);
  const res = await exchange(app, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI });
  if (res.statusCode !== 200) throw new Error(`token exchange answered ${res.statusCode}: ${res.body}`);
  return res.json();
}
