/** A bare Fastify route answering a fixed JSON body: the yardstick for our stack's overhead. */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body: unknown = JSON.parse(readFileSync(process.env.BODY_FILE!, 'utf8'));
const app = Fastify();
app.get('/bare', async () => body);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
