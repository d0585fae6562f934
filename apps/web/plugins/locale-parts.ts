import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { LOCALE_AREAS, type LocalePart } from '../src/locales/areas.ts';

const VIRTUAL_ID = 'virtual:locale-parts';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;
const PART_ID = /^(.*[\\/]locales[\\/][\w-]+\.json)\?part=(\w+)$/;

const isArea = (part: string): part is (typeof LOCALE_AREAS)[number] => (LOCALE_AREAS as readonly string[]).includes(part);

/** One part of a language's messages: an area's group, or every group that is no area's. */
function partOf(messages: Record<string, unknown>, part: LocalePart): Record<string, unknown> {
  if (isArea(part)) return { [part]: messages[part] ?? {} };
  return Object.fromEntries(Object.entries(messages).filter(([group]) => !isArea(group)));
}

/**
 * Serves `virtual:locale-parts`: for each language of src/locales, a loader per part
 * (src/locales/areas.ts), each its own chunk. A part is `<code>.json?part=<name>`: the language
 * file cut down to that part at build time.
 */
export function localeParts(): Plugin {
  let directory = '';
  return {
    name: 'ticket:locale-parts',
    enforce: 'pre',
    configResolved(config) {
      directory = path.join(config.root, 'src', 'locales');
    },
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : undefined;
    },
    load(id) {
      if (id === RESOLVED_ID) {
        const codes = readdirSync(directory)
          .filter((file) => file.endsWith('.json'))
          .map((file) => file.slice(0, -'.json'.length))
          .sort();
        const parts: LocalePart[] = ['shell', ...LOCALE_AREAS];
        const languages = codes.map((code) => {
          const file = path.join(directory, `${code}.json`).replaceAll('\\', '/');
          const loaders = parts.map((part) => `${part}: () => import(${JSON.stringify(`${file}?part=${part}`)})`);
          return `  ${JSON.stringify(code)}: { ${loaders.join(', ')} },`;
        });
        return `export const LOCALE_PARTS = {\n${languages.join('\n')}\n};\n`;
      }
      const match = PART_ID.exec(id);
      if (!match) return undefined;
      const [, file = '', part = ''] = match;
      if (part !== 'shell' && !isArea(part)) throw new Error(`Unknown locale part "${part}" in ${id}`);
      this.addWatchFile(file);
      const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      // A module of its own rather than JSON text: the query hides the `.json` from Vite's JSON
      // support. JSON.parse of a string literal is the fastest way to load a large object.
      return { code: `export default JSON.parse(${JSON.stringify(JSON.stringify(partOf(messages, part)))});`, moduleType: 'js' };
    },
  };
}
