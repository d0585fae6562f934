import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BOT_WORDS_FILE, shippedBotWords } from '../../i18n/bot-words';
import { CHECKOUT_ROOT } from '../../checkout';
import { LOCALE_AREA_NAMES, LOCALE_AREAS } from '../../../../web/src/locales/areas';

/** A translation file as the build ships it: its source language and its texts in each language it has. */
export interface ShippedFile {
  fileName: string;
  sourceLanguage: string;
  /** Language → key → text. */
  texts: Record<string, Record<string, string>>;
}

/** The dashboard's messages of one part, read from the web's locale files (apps/web/plugins/locale-parts.ts cuts them the same way). */
export const webFileName = (part: string) => `web-${part}`;

const AREA_GROUPS = new Set<string>(Object.values(LOCALE_AREAS).flat());

function flatten(messages: Record<string, unknown>, prefix: string, out: Record<string, string>): Record<string, string> {
  for (const [key, value] of Object.entries(messages)) {
    const at = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out[at] = value;
    else if (value !== null && typeof value === 'object') flatten(value as Record<string, unknown>, at, out);
  }
  return out;
}

/**
 * The dashboard's own texts, one file per part it loads lazily (`web-shell`, `web-<area>`), from
 * its locale files. Where they are not beside the server (it runs without the web's sources), the
 * dashboard keeps its bundled texts and none of these files exists.
 */
export function shippedWebFiles(directory = path.join(CHECKOUT_ROOT, 'apps/web/src/locales')): ShippedFile[] {
  let files: string[];
  try {
    files = readdirSync(directory).filter((file) => file.endsWith('.json'));
  } catch {
    return [];
  }
  const parts = ['shell', ...LOCALE_AREA_NAMES];
  const shipped = parts.map((part) => ({ fileName: webFileName(part), sourceLanguage: 'en', texts: {} as Record<string, Record<string, string>> }));
  for (const file of files) {
    const language = file.slice(0, -'.json'.length);
    const messages = JSON.parse(readFileSync(path.join(directory, file), 'utf8')) as Record<string, unknown>;
    for (const [index, part] of parts.entries()) {
      const groups =
        part === 'shell'
          ? Object.keys(messages).filter((group) => !AREA_GROUPS.has(group))
          : [...LOCALE_AREAS[part as keyof typeof LOCALE_AREAS]];
      shipped[index]!.texts[language] = flatten(Object.fromEntries(groups.map((group) => [group, messages[group]])), '', {});
    }
  }
  return shipped;
}

/** Every file the build ships: the bot's texts and the dashboard's parts. */
export function shippedFiles(): ShippedFile[] {
  return [{ fileName: BOT_WORDS_FILE, sourceLanguage: 'en', texts: shippedBotWords() }, ...shippedWebFiles()];
}
