import type { deploymentCalls, WhitelabelEntry } from '../deployment';
import { EX } from './fixtures';
import type { ExamplesOf } from './types';

const botToken = 'MTEyMzQ1Njc4OTAxMjM0NTY3OA.GhT4kP.x9Yb2LmQw7ZcN4vRt8UjK1sEa5FdHo3iPgMn6';
const bot: WhitelabelEntry = {
  serverId: EX.serverId,
  activity: 'Helping Pixel Forge',
  userId: EX.botUserId,
  name: 'Forge Helper',
  avatarUrl: null,
  status: 'Running',
  statusMessage: null,
  clientId: EX.clientId,
  revision: 3,
};

export const deploymentExamples: ExamplesOf<typeof deploymentCalls> = {
  getWhitelabels: {
    query: { Page: 1, Amount: 100, includeToken: true, shardId: 0, shardCount: 2 },
    response: { page: 1, maxPage: 1, elements: [{ ...bot, token: botToken }] },
  },
  getWhitelabelsBulk: { query: { includeToken: false }, body: { ids: [EX.serverId] }, response: [bot] },
  getWhitelabel: { params: { serverId: EX.serverId }, response: bot },
  createWhitelabel: {
    params: { serverId: EX.serverId },
    body: { token: botToken, activity: 'Helping Pixel Forge' },
    response: { ...bot, status: 'NotRunning', revision: 1 },
  },
  updateWhitelabel: {
    params: { serverId: EX.serverId },
    body: { activity: 'Open a ticket in #get-help' },
    response: { ...bot, activity: 'Open a ticket in #get-help', revision: 4 },
  },
  deleteWhitelabel: { params: { serverId: EX.serverId } },
  startWhitelabel: { params: { serverId: EX.serverId }, response: { ...bot, status: 'Starting', revision: 4 } },
  updateWhitelabelStatus: {
    params: { serverId: EX.serverId },
    body: { status: 'Failed', reason: 'The platform refused the bot token (it may have been reset)', revision: 4 },
  },
};
