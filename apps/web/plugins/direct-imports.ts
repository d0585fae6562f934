import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

const PACKAGES = ['@mantine/core', '@mantine/hooks'];
const SPECIFIER = String.raw`['"](@mantine\/(?:core|hooks))['"]`;
const NAMED = new RegExp(String.raw`\b(import|export)\s*\{([^}]*)\}\s*from\s*${SPECIFIER};?`, 'g');
const BARE = new RegExp(String.raw`\bimport\s*${SPECIFIER};?`, 'g');
const RE_EXPORT = /^export\s*\{([^}]*)\}\s*from\s*'(\.[^']+)';$/;
/** A module of Mantine's own ESM build. */
const MANTINE_MODULE = /[\\/]node_modules[\\/]@mantine[\\/](core|hooks)[\\/]esm[\\/]/;
/** An import of one of Mantine's modules for its side effects alone, which its modules have none of. */
const BARE_RELATIVE = /^import '\.\.?\/[^']+\.mjs';$/gm;

interface Target {
  file: string;
  name: string;
}

/** A flat ESM barrel's exports (`export { a, b as c } from './x.mjs';` lines): exported name → file and name there. */
function barrelExports(barrel: string): Map<string, Target> {
  const exports = new Map<string, Target>();
  for (const line of readFileSync(barrel, 'utf8').split('\n')) {
    const match = RE_EXPORT.exec(line.trim());
    if (!match) continue;
    const file = path.resolve(path.dirname(barrel), match[2] as string).replaceAll('\\', '/');
    for (const specifier of (match[1] as string).split(',')) {
      const [name, alias = name] = specifier.trim().split(/\s+as\s+/) as [string, string?];
      if (name) exports.set(alias as string, { file, name });
    }
  }
  return exports;
}

/**
 * Imports from Mantine's packages point at the module that defines each name rather than at the
 * package's index, which re-exports every component and hook. The output is the same, tree-shaken
 * code; what changes is the module graph the build sees: through the index, a module that uses a
 * Button seems to depend on every component, so a chunk group that takes a module's dependencies
 * along (plugins/chunks.ts) would take all of Mantine. Names the index does not re-export from a
 * file of its own stay imported from the package.
 */
export function directMantineImports(): Plugin {
  const barrels = new Map<string, Map<string, Target>>();
  return {
    name: 'ticket:direct-mantine-imports',
    apply: 'build',
    async buildStart() {
      for (const name of PACKAGES) {
        const resolved = await this.resolve(name, path.join(process.cwd(), 'index.html'));
        if (resolved) barrels.set(name, barrelExports(resolved.id));
      }
    },
    transform: {
      filter: { id: { exclude: /\.css$/ } },
      handler(code, id) {
        const source = MANTINE_MODULE.test(id) ? code.replace(BARE_RELATIVE, '') : code;
        const rewritten = source
          .replace(NAMED, (statement, kind: string, list: string, name: string) => {
            const exports = barrels.get(name);
            if (!exports) return statement;
            const direct: string[] = [];
            const rest: string[] = [];
            for (const raw of list.split(',')) {
              const specifier = raw.trim();
              if (!specifier) continue;
              const [imported, local = imported] = specifier.split(/\s+as\s+/) as [string, string?];
              const target = exports.get(imported);
              if (!target || specifier.startsWith('type ')) {
                rest.push(specifier);
                continue;
              }
              const binding = target.name === local ? local : `${target.name} as ${local}`;
              direct.push(`${kind} { ${binding} } from ${JSON.stringify(target.file)};`);
            }
            if (rest.length > 0) direct.push(`${kind} { ${rest.join(', ')} } from ${JSON.stringify(name)};`);
            return direct.join(' ');
          })
          // Mantine's own modules import the hooks package for its side effects, which it has none of.
          .replace(BARE, '');
        return rewritten === code ? undefined : { code: rewritten, map: null };
      },
    },
  };
}
