import { startSandbox } from './index.ts';

const port = Number(process.env.SANDBOX_PORT ?? 3001);
const host = process.env.SANDBOX_HOST ?? '127.0.0.1';

if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`SANDBOX_PORT must be a port number, got "${process.env.SANDBOX_PORT}"`);
  process.exit(1);
}

const sandbox = await startSandbox({ port, host });
console.log(`Chat platform sandbox listening on ${sandbox.url}`);
console.log(`  REST API base for @discordjs/rest: ${sandbox.url}/api`);
console.log(`  OAuth2 authorize page:            ${sandbox.url}/oauth2/authorize`);
console.log(`  Gateway (v10, JSON):              ${sandbox.gatewayUrl}`);

// Close the listener on Ctrl+C / container stop so the port is freed at once.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void sandbox.close().then(() => process.exit(0));
  });
}
