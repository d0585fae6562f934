/**
 * `npm start`: the dashboard and all eight services on one port, and the bot runtime that holds
 * the platform's gateway. Without chat-platform credentials it runs in demo mode: the local
 * sandbox stands in for the platform, gateway included.
 */
import { randomBytes } from 'node:crypto';
import type { PaymentProvider } from '@ticket/contracts';
import { loadConfig as loadBotConfig, startRuntime, type BotRuntime } from '../apps/bot/src/index';
import { loadDemoFixtures, startSandbox } from '../apps/sandbox/src/index';
import { loadConfig, SANDBOX_STRIPE, type Config } from '../apps/server/src/config';
import { demoServersOf, seedDemoServers } from '../apps/server/src/demo/seed';
import { seedDemoSubscriptions } from '../apps/server/src/demo/subscriptions';
import { startServer } from '../apps/server/src/server';
import type { StartEnv as Env } from './start-env';

/**
 * The bot runtime beside the API, reporting to it with an operator key of its own (added to the
 * API's keys), unless BOT_RUNTIME=off (the runtime then runs elsewhere: `npm run bot`).
 */
async function startBot(env: Env, config: Config, apiUrl: string, botToken: string, apiBase: string): Promise<BotRuntime | null> {
  if (env.BOT_RUNTIME === 'off') return null;
  return startRuntime(
    loadBotConfig({
      ...env,
      DISCORD_BOT_TOKEN: botToken,
      DISCORD_API_URL: apiBase,
      TICKET_API_URL: env.TICKET_API_URL ?? apiUrl,
      BOT_API_KEY: env.BOT_API_KEY ?? config.adminKeys[config.adminKeys.length - 1],
      DATA_DIR: config.dataDir,
    }),
  );
}

/** A key for the runtime started here, so nothing needs configuring for it. */
function withRuntimeKey(env: Env, config: Config): Config {
  if (env.BOT_RUNTIME === 'off' || env.BOT_API_KEY) return config;
  return { ...config, adminKeys: [...config.adminKeys, randomBytes(24).toString('hex')] };
}

async function main(): Promise<void> {
  const env: Env = { ...process.env };
  const demo = !(env.DISCORD_CLIENT_ID && env.DISCORD_CLIENT_SECRET && env.DISCORD_BOT_TOKEN);
  let sandbox: Awaited<ReturnType<typeof startSandbox>> | null = null;
  let bot: BotRuntime | null = null;
  if (demo) {
    const port = Number(env.SANDBOX_PORT ?? 3001);
    sandbox = await startSandbox({ port, host: env.HOST ?? '0.0.0.0' });
    const { application, guilds, users } = loadDemoFixtures();
    const url = `http://localhost:${port}`;
    Object.assign(env, {
      DISCORD_API_URL: `${url}/api`,
      DISCORD_AUTHORIZE_URL: `${url}/oauth2/authorize`,
      DISCORD_CDN_URL: `${url}/cdn`,
      DISCORD_APP_URL: `${url}/app`,
      // The sandbox's Stripe (its test key and API); STRIPE_WEBHOOK_SECRET, when set, signs its webhooks.
      STRIPE_API_URL: env.STRIPE_SECRET_KEY ? env.STRIPE_API_URL : (env.STRIPE_API_URL ?? url),
      PAYPAL_API_URL: env.PAYPAL_CLIENT_ID ? env.PAYPAL_API_URL : (env.PAYPAL_API_URL ?? `${url}/paypal`),
    });
    // Platform credentials stay unset so the server knows it is in demo mode; the sandbox's are passed directly.
    const config = withRuntimeKey(env, loadConfig(env));
    config.platform = {
      ...config.platform,
      clientId: application.clientId,
      clientSecret: application.clientSecret,
      botToken: application.botToken,
      publicKey: sandbox.publicKey,
    };
    // Each demo server on another plan, so every plan's screens can be tried: the paid ones hold
    // subscriptions their owners buy at the sandbox's Stripe and PayPal through the product's own
    // checkout, made (or brought in step with the fresh sandbox) before the API answers.
    const demoServers = demoServersOf(guilds);
    const sandboxProviders: PaymentProvider[] = [...(env.STRIPE_SECRET_KEY ? [] : ['stripe' as const]), ...(env.PAYPAL_CLIENT_ID ? [] : ['paypal' as const])];
    const emails = new Map(users.map((u) => [u.id, u.email]));
    const server = await startServer(config, async (built) => {
      await seedDemoServers(built.database.db, built.services.settings, demoServers);
      await seedDemoSubscriptions(built, config, demoServers, { sandboxUrl: url, providers: sandboxProviders, emailOf: (id) => emails.get(id) ?? null });
    });
    // Members' clicks in the sandbox reach the interactions endpoint, signed with the sandbox's key;
    // everything else they do reaches the bot runtime over the sandbox's gateway.
    sandbox.configure({ interactionsUrl: `${server.url}/api/support/discord` });
    // The sandbox's Stripe delivers its events to the payment webhook, signed with the secret the API checks.
    if (!env.STRIPE_SECRET_KEY) {
      await fetch(`${url}/_sandbox/stripe/config`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ webhookSecret: config.payment.stripe.webhookSecret || SANDBOX_STRIPE.webhookSecret, forwardTo: `${server.url}/api/payment/webhook/stripe/webhook` }),
      });
    }
    // The sandbox's PayPal delivers to the PayPal webhook (its id is the demo PAYPAL_WEBHOOK_ID).
    if (!env.PAYPAL_CLIENT_ID) {
      await fetch(`${url}/_sandbox/paypal/config`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ webhookUrl: `${server.url}/api/payment/webhook/paypal` }),
      });
    }
    bot = await startBot(env, config, server.url, application.botToken, env.DISCORD_API_URL!);
    console.log(
      `\n  Ticket dashboard (demo mode) → ${server.url}\n  Chat-platform sandbox       → ${url}\n${bot ? `  Bot runtime                 → ${bot.healthUrl}\n` : ''}  Sign in with one of the demo users on the sandbox's consent page.\n`,
    );
  } else {
    const config = withRuntimeKey(env, loadConfig(env));
    const server = await startServer(config);
    bot = await startBot(env, config, server.url, config.platform.botToken, config.platform.apiUrl);
    console.log(`\n  Ticket dashboard → ${server.url}\n${bot ? `  Bot runtime      → ${bot.healthUrl}\n` : ''}`);
  }
  // The API stops itself on these signals; the runtime keeps its gateway sessions to resume.
  const stop = () => {
    void bot?.close();
    void sandbox?.close();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
