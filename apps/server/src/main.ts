/**
 * The API process: reads its configuration from the environment and runs until SIGINT or SIGTERM
 * (`startServer` in server.ts). Production runs it built (`npm run build` writes
 * apps/server/dist/main.mjs); `npm start` and the tests start the server from its sources.
 */
import { startServer } from './server';

startServer().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
