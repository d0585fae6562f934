import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { operationsOf, requestArbitrary, type Hints } from './openapi-fuzz';
const doc = JSON.parse(readFileSync('/tmp/fz/openapi.json', 'utf8'));
const operations = operationsOf(doc);
const hints: Hints = { snowflake: () => fc.constant('1300000000000000001'), opaqueId: () => fc.stringMatching(/^[a-z0-9]{8,16}$/) };
for (const op of operations) {
  const t = Date.now();
  process.stdout.write(op.id + ' ... ');
  const arb = requestArbitrary(op, { hints, credentials: ['operator'], operations, bodyLimit: 1 << 20 });
  const xs = fc.sample(arb, { seed: 1, numRuns: 50 });
  const r = xs.filter((x) => x.expect === 'reject').length;
  console.log(Date.now() - t, 'ms', r, 'reject');
}
