import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadListenConfig, SANDBOX_ENV_VARIABLES } from '@ticket/sandbox';
import { describe, expect, it } from 'vitest';
import { PRODUCTION_NODE_FLAGS } from '../../../scripts/node-flags';
import { START_ENV_VARIABLES } from '../../../scripts/start-env';
import { BOT_ENV_VARIABLES, loadConfig as loadBotConfig } from '../../bot/src/config';
import { loadConfig, SERVER_ENV_VARIABLES } from './config';

/**
 * README.md's configuration table against the loaders: every variable the API, the bot runtime,
 * the sandbox and `npm start` read has a row, and every row names a variable one of them reads.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');

const readers: Record<string, readonly string[]> = {
  'the API (apps/server/src/config.ts)': SERVER_ENV_VARIABLES,
  'the bot runtime (apps/bot/src/config.ts)': BOT_ENV_VARIABLES,
  'the sandbox (apps/sandbox/src/listen-config.ts)': SANDBOX_ENV_VARIABLES,
  'npm start (scripts/start-env.ts)': START_ENV_VARIABLES,
};

/**
 * The variables named in the first column of the tables under "## Configuration" whose header
 * starts with `variable` (a cell may name several, `A` / `B`).
 */
function documentedVariables(markdown: string): string[] {
  const section = markdown.split(/^## Configuration$/m)[1]?.split(/^## /m)[0] ?? '';
  const names: string[] = [];
  let inTable = false;
  for (const line of section.split('\n')) {
    if (!line.startsWith('|')) {
      inTable = false;
      continue;
    }
    const first = line.split('|')[1]?.trim() ?? '';
    if (/^variable$/i.test(first)) inTable = true;
    else if (inTable && !/^-+$/.test(first)) names.push(...[...first.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
  }
  return names;
}

/** A documented name matches itself; `<NAME>` in it (`SERVICE_URL_<NAME>`) stands for any upper-case part. */
function matches(documented: string, variable: string): boolean {
  const pattern = documented.split(/<[A-Z]+>/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${pattern.join('[A-Z0-9_]+')}$`).test(variable);
}

/** The variables a loader reads from the environment it is given. */
function readsOf(load: (env: Record<string, string | undefined>) => unknown, env: Record<string, string | undefined>): string[] {
  const read = new Set<string>();
  load(
    new Proxy(env, {
      get(target, key) {
        if (typeof key === 'string') read.add(key);
        return Reflect.get(target, key);
      },
    }),
  );
  return [...read].sort();
}

describe("README.md's configuration table", () => {
  const documented = documentedVariables(readme);

  it('is found, each variable in one row', () => {
    expect(documented.length).toBeGreaterThan(50);
    const repeated = documented.filter((name, i) => documented.indexOf(name) !== i);
    expect(repeated, 'variables with more than one row').toEqual([]);
  });

  it.each(Object.entries(readers))('lists every variable %s reads', (_reader, variables) => {
    const missing = variables.filter((variable) => !documented.some((name) => matches(name, variable)));
    expect(missing, 'read but missing from the configuration table of README.md').toEqual([]);
  });

  it('lists no variable that nothing reads', () => {
    const read = Object.values(readers).flat();
    const unread = documented.filter((name) => !read.some((variable) => matches(name, variable)));
    expect(unread, 'in the configuration table of README.md but read by no loader').toEqual([]);
  });
});

describe('the variable lists', () => {
  // With credentials, S3 and Localazy set, every branch of the loader reads its variables.
  it("are what the API's loader reads (SERVICE_URL_<NAME> is read when the runtime config is answered)", () => {
    const env = { DISCORD_CLIENT_ID: '1', DISCORD_CLIENT_SECRET: 's', DISCORD_BOT_TOKEN: 't', ENCRYPTION_KEY: '11'.repeat(32), S3_BUCKET: 'b', LOCALAZY_TOKEN: 'l' };
    const listed = SERVER_ENV_VARIABLES.filter((name) => !name.startsWith('SERVICE_URL_'));
    expect(readsOf((e) => loadConfig(e), env)).toEqual([...listed].sort());
  });

  it("are what the bot runtime's loader reads", () => {
    const env = { DISCORD_BOT_TOKEN: 't', ADMIN_KEYS: 'k', SHARD_COUNT: '2' };
    expect(readsOf((e) => loadBotConfig(e), env)).toEqual([...BOT_ENV_VARIABLES].sort());
  });

  it("are what the sandbox's loader reads", () => {
    expect(readsOf(loadListenConfig, {})).toEqual([...SANDBOX_ENV_VARIABLES].sort());
  });
});

describe("the API's V8 limits", () => {
  /** The values given to NODE_OPTIONS in a text. */
  const nodeOptions = (text: string) => [...text.matchAll(/NODE_OPTIONS="([^"]*)"/g)].map((match) => match[1]);

  it("are in README.md's Memory section as npm run bench and npm run soak measure them", () => {
    const memory = readme.split(/^### Memory$/m)[1]?.split(/^##/m)[0] ?? '';
    expect(nodeOptions(memory)).toEqual([PRODUCTION_NODE_FLAGS]);
  });

  it('are what deploy/Dockerfile runs the API with', () => {
    expect(nodeOptions(readFileSync(path.join(root, 'deploy/Dockerfile'), 'utf8'))).toEqual([PRODUCTION_NODE_FLAGS]);
  });
});
