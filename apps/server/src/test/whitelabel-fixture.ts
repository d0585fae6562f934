import { createPrivateKey, sign } from 'node:crypto';
import { loadDemoFixtures } from '@ticket/sandbox';
import { now } from '../db/database';
import { seal } from '../platform/crypto';
import type { TestContext } from './harness';

/** Study Buddy, the sandbox's white-label application that is a member of Study Hall (apps/sandbox/fixtures/demo.json). */
export function studyBuddy() {
  const app = loadDemoFixtures().whiteLabelApplications!.find((a) => a.clientId === '1100000000000000101')!;
  const key = createPrivateKey({
    key: { kty: 'OKP', crv: 'Ed25519', d: Buffer.from(app.privateKey!, 'hex').toString('base64url'), x: Buffer.from(app.publicKey!, 'hex').toString('base64url') },
    format: 'jwk',
  });
  return {
    clientId: app.clientId,
    userId: app.botUserId,
    token: app.botToken,
    publicKey: app.publicKey!,
    /** Headers of an interaction the platform signed with this application's key. */
    headers(body: string, timestamp = String(Math.floor(Date.now() / 1000))) {
      const signature = sign(null, Buffer.from(timestamp + body), key).toString('hex');
      return { 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp, 'content-type': 'application/json' };
    },
  };
}

/** Stores a white-label bot for the server as the deployment service would have set it up. */
export async function storeWhitelabelBot(
  ctx: Pick<TestContext, 'built'>,
  encryptionKey: Buffer,
  serverId: string,
  bot: { clientId: string; userId: string; token: string; publicKey: string },
  status = 'Running',
): Promise<void> {
  const at = now();
  await ctx.built.database.db
    .insertInto('whitelabel_bots')
    .values({
      server_id: serverId,
      shard_key: Number(BigInt(serverId) >> 22n),
      user_id: bot.userId,
      client_id: bot.clientId,
      name: 'Study Buddy',
      avatar: null,
      public_key: bot.publicKey,
      token_sealed: seal(bot.token, encryptionKey),
      activity: null,
      status,
      status_message: null,
      status_at: at,
      revision: 1,
      created_by: null,
      created_at: at,
      updated_at: at,
      deleted_at: null,
    })
    .execute();
}
