/**
 * The API process: reads its configuration from the environment and runs until SIGINT or SIGTERM
 * (`startServer` in server.ts). A deployment, and the tests of whole processes, run it built
 * (`npm run build` writes apps/server/dist/main.mjs); `npm start` starts the server from its
 * sources, beside the sandbox and the bot runtime.
 */
import { startServer } from './server';

startServer().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
