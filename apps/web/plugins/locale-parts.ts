import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { LOCALE_AREA_NAMES, LOCALE_AREAS, type LocaleArea } from '../src/locales/areas.ts';

const VIRTUAL_ID = 'virtual:locale-parts';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;
const AREAS_ID = 'virtual:locale-areas';
const RESOLVED_AREAS_ID = `\0${AREAS_ID}`;
const PART_ID = /^(.*[\\/]locales[\\/][\w-]+\.json)\?part=(\w+)$/;

const isArea = (part: string): part is LocaleArea => (LOCALE_AREA_NAMES as readonly string[]).includes(part);
const AREA_GROUPS = new Set<string>(Object.values(LOCALE_AREAS).flat());

/** One part of a language's messages: an area's groups, or every group that is no area's. */
function partOf(messages: Record<string, unknown>, part: string): Record<string, unknown> {
  if (isArea(part)) {
    return Object.fromEntries(LOCALE_AREAS[part].map((group) => [group, messages[group] ?? {}]));
  }
  return Object.fromEntries(Object.entries(messages).filter(([group]) => !AREA_GROUPS.has(group)));
}

/**
 * Serves `virtual:locale-parts`: for each language of src/locales, the loader of its shell part,
 * and `virtual:locale-areas`, the loaders of the areas' parts (src/locales/areas.ts), a table the
 * first screen does not need, loaded with the first area. Each part is its own chunk:
 * `<code>.json?part=<name>`, the language file cut down to that part at build time.
 */
export function localeParts(): Plugin {
  let directory = '';
  const languages = () =>
    readdirSync(directory)
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.slice(0, -'.json'.length))
      .sort()
      .map((code) => ({ code, file: path.join(directory, `${code}.json`).replaceAll('\\', '/') }));
  const loader = (file: string, part: string) => `() => import(${JSON.stringify(`${file}?part=${part}`)})`;
  return {
    name: 'ticket:locale-parts',
    enforce: 'pre',
    configResolved(config) {
      directory = path.join(config.root, 'src', 'locales');
    },
    resolveId(id) {
      if (id === VIRTUAL_ID) return RESOLVED_ID;
      return id === AREAS_ID ? RESOLVED_AREAS_ID : undefined;
    },
    load(id) {
      if (id === RESOLVED_ID) {
        const shells = languages().map(({ code, file }) => `  ${JSON.stringify(code)}: ${loader(file, 'shell')},`);
        return [
          `export const LOCALE_SHELLS = {\n${shells.join('\n')}\n};`,
          `export const loadLocaleAreas = () => import(${JSON.stringify(AREAS_ID)});`,
          '',
        ].join('\n');
      }
      if (id === RESOLVED_AREAS_ID) {
        const areas = languages().map(({ code, file }) => {
          const loaders = LOCALE_AREA_NAMES.map((area) => `${area}: ${loader(file, area)}`);
          return `  ${JSON.stringify(code)}: { ${loaders.join(', ')} },`;
        });
        return `export const LOCALE_AREA_PARTS = {\n${areas.join('\n')}\n};\n`;
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
