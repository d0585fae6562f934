import { loadListenConfig, startSandbox, type ListenConfig } from './index.ts';

let listen: ListenConfig;
try {
  listen = loadListenConfig();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

const sandbox = await startSandbox(listen);
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
