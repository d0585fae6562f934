/**
 * `npm start`: the dashboard and all eight services on one port. Without chat-platform
 * credentials it runs in demo mode: the local sandbox stands in for the platform.
 */
import { randomBytes } from 'node:crypto';
import { loadDemoFixtures, startSandbox } from '../apps/sandbox/src/index';
import { loadConfig } from '../apps/server/src/config';
import { seedDemoServers, type DemoServer } from '../apps/server/src/demo/seed';
import { startServer } from '../apps/server/src/main';

async function main(): Promise<void> {
  const env = { ...process.env };
  const demo = !(env.DISCORD_CLIENT_ID && env.DISCORD_CLIENT_SECRET && env.DISCORD_BOT_TOKEN);
  let sandbox: Awaited<ReturnType<typeof startSandbox>> | null = null;
  if (demo) {
    const port = Number(env.SANDBOX_PORT ?? 3001);
    sandbox = await startSandbox({ port, host: env.HOST ?? '0.0.0.0' });
    const { application, guilds } = loadDemoFixtures();
    const url = `http://localhost:${port}`;
    Object.assign(env, {
      DISCORD_API_URL: `${url}/api`,
      DISCORD_AUTHORIZE_URL: `${url}/oauth2/authorize`,
      DISCORD_CDN_URL: `${url}/cdn`,
      DISCORD_APP_URL: `${url}/app`,
    });
    // Platform credentials stay unset so the server knows it is in demo mode; the sandbox's are passed directly.
    const config = loadConfig(env);
    config.platform = {
      ...config.platform,
      clientId: application.clientId,
      clientSecret: application.clientSecret,
      botToken: application.botToken,
      publicKey: sandbox.publicKey,
    };
    // The sandbox plays the bot worker too: it reports members' messages in ticket channels with an operator key.
    const workerKey = randomBytes(24).toString('hex');
    config.adminKeys = [...config.adminKeys, workerKey];
    // Each demo server on another plan, so every plan's screens can be tried.
    const plans: DemoServer['plan'][] = ['free', 'premium', 'enterprise'];
    const demoServers: DemoServer[] = guilds
      .filter((g) => g.botMember)
      .map((g, i) => ({
        serverId: g.id,
        name: g.name,
        plan: plans[i % plans.length]!,
        staffRoleIds: g.roles.filter((r) => r.name === 'Support Staff').map((r) => r.id),
      }));
    const server = await startServer(config, (built) => seedDemoServers(built.database.db, built.services.settings, demoServers));
    // Members' clicks in the sandbox reach the interactions endpoint, signed with the sandbox's key.
    sandbox.configure({
      interactionsUrl: `${server.url}/api/support/discord`,
      botWorker: { apiUrl: `${server.url}/api/support`, authorization: `Admin ${workerKey}` },
    });
    console.log(`\n  Ticket dashboard (demo mode) → ${server.url}\n  Chat-platform sandbox       → ${url}\n  Sign in with one of the demo users on the sandbox's consent page.\n`);
  } else {
    const server = await startServer(loadConfig(env));
    console.log(`\n  Ticket dashboard → ${server.url}\n`);
  }
  const stop = () => void sandbox?.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
