/** The chat platform's stand-in, in a process of its own so that the API's memory is measured alone. */
import { startSandbox } from '../../apps/sandbox/src/index';

await startSandbox({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
