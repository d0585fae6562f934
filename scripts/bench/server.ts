/** The API under test, in its own process so its memory can be measured alone. */
import { loadDemoFixtures } from '../../apps/sandbox/src/index';
import { loadConfig } from '../../apps/server/src/config';
import { startServer } from '../../apps/server/src/main';

const sandbox = process.env.SANDBOX_URL!;
const { application } = loadDemoFixtures();
const config = loadConfig({
  ...process.env,
  DISCORD_CLIENT_ID: application.clientId,
  DISCORD_CLIENT_SECRET: application.clientSecret,
  DISCORD_BOT_TOKEN: application.botToken,
  DISCORD_API_URL: `${sandbox}/api`,
  DISCORD_AUTHORIZE_URL: `${sandbox}/oauth2/authorize`,
  ENCRYPTION_KEY: '11'.repeat(32),
  LOG_LEVEL: 'silent',
  WEB_DIR: '',
  RATE_LIMIT_MAX: '100000000',
});
await startServer(config);
process.send?.('ready');
