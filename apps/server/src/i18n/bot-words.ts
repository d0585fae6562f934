/**
 * The `bot` translation file: every text the product itself writes on the chat platform (system
 * lines in ticket channels, default welcome and close messages, direct messages, default button
 * labels, modal titles, refusals, log channel lines), in the 39 languages of SPEC §9.
 *
 * Flat keys in dot notation, `{{placeholder}}` interpolation and plural suffixes (`_one`, `_other`,
 * …) as i18next writes them, so corrected files uploaded through the translations service have the
 * same shape as the shipped ones.
 */
import ar from './bot/ar.json' with { type: 'json' };
import bg from './bot/bg.json' with { type: 'json' };
import ca from './bot/ca.json' with { type: 'json' };
import cs from './bot/cs.json' with { type: 'json' };
import da from './bot/da.json' with { type: 'json' };
import de from './bot/de.json' with { type: 'json' };
import el from './bot/el.json' with { type: 'json' };
import en from './bot/en.json' with { type: 'json' };
import es from './bot/es.json' with { type: 'json' };
import et from './bot/et.json' with { type: 'json' };
import fa from './bot/fa.json' with { type: 'json' };
import fi from './bot/fi.json' with { type: 'json' };
import fr from './bot/fr.json' with { type: 'json' };
import he from './bot/he.json' with { type: 'json' };
import hi from './bot/hi.json' with { type: 'json' };
import ht from './bot/ht.json' with { type: 'json' };
import hu from './bot/hu.json' with { type: 'json' };
import id from './bot/id.json' with { type: 'json' };
import is_ from './bot/is.json' with { type: 'json' };
import it from './bot/it.json' with { type: 'json' };
import ja from './bot/ja.json' with { type: 'json' };
import ko from './bot/ko.json' with { type: 'json' };
import lt from './bot/lt.json' with { type: 'json' };
import lv from './bot/lv.json' with { type: 'json' };
import ms from './bot/ms.json' with { type: 'json' };
import nl from './bot/nl.json' with { type: 'json' };
import nb_ from './bot/no.json' with { type: 'json' };
import pl from './bot/pl.json' with { type: 'json' };
import pt from './bot/pt.json' with { type: 'json' };
import ro from './bot/ro.json' with { type: 'json' };
import ru from './bot/ru.json' with { type: 'json' };
import sk from './bot/sk.json' with { type: 'json' };
import sl from './bot/sl.json' with { type: 'json' };
import sv from './bot/sv.json' with { type: 'json' };
import th from './bot/th.json' with { type: 'json' };
import tr from './bot/tr.json' with { type: 'json' };
import uk from './bot/uk.json' with { type: 'json' };
import ur from './bot/ur.json' with { type: 'json' };
import vi from './bot/vi.json' with { type: 'json' };

const SHIPPED: Record<string, Record<string, string>> = { ar, bg, ca, cs, da, de, el, en, es, et, fa, fi, fr, he, hi, ht, hu, id, is: is_, it, ja, ko, lt, lv, ms, nl, no: nb_, pl, pt, ro, ru, sk, sl, sv, th, tr, uk, ur, vi };

/** The name of the translation file these texts belong to. */
export const BOT_WORDS_FILE = 'bot';

/** Language every other one falls back to. */
const FALLBACK = 'en';

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

type StripPlural<K> = K extends `${infer Base}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? Base : K;

/** A text the bot writes; a plural one is named without its suffix and chosen by `count`. */
export type BotWordKey = StripPlural<keyof typeof en>;

export type BotWordVars = Record<string, string | number>;

/** Texts bound to one ticket's languages: what a service hands down to whatever writes for it. */
export type Say = (key: BotWordKey, vars?: BotWordVars) => string;

/** The shipped texts, language → key → text, as the JSON files hold them. */
export function shippedBotWords(): Record<string, Record<string, string>> {
  return Object.fromEntries(Object.entries(SHIPPED).map(([language, texts]) => [language, { ...texts }]));
}

const pluralRules = new Map<string, Intl.PluralRules>();
function pluralCategory(language: string, count: number): string {
  let rules = pluralRules.get(language);
  if (!rules) {
    try {
      rules = new Intl.PluralRules(language);
    } catch {
      rules = new Intl.PluralRules(FALLBACK);
    }
    pluralRules.set(language, rules);
  }
  return rules.select(count);
}

const interpolate = (text: string, vars: BotWordVars | undefined) =>
  vars ? text.replace(/\{\{\s*-?\s*([\w.]+)\s*\}\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole)) : text;

/**
 * The bot's texts for one app. Languages are tried in order per key (the ticket's subject's, then
 * its server's, then English), so a key missing or empty in a corrected file still reads in the
 * next language rather than not at all.
 */
export class BotWords {
  private readonly shipped = shippedBotWords();
  private readonly replaced = new Map<string, Record<string, string>>();

  /**
   * Corrected texts of one language take the place of what was in use. A key they leave out keeps
   * the shipped text of that language.
   */
  replace(language: string, texts: Record<string, string>): void {
    this.replaced.set(language, { ...texts });
  }

  /** The languages a text is looked up in, best first: a regional code (`pt-BR`) also tries its base (`pt`). */
  private chain(language: string | readonly (string | null | undefined)[] | null | undefined): string[] {
    const asked = typeof language === 'string' || language == null ? [language] : language;
    const chain: string[] = [];
    for (const code of [...asked, FALLBACK]) {
      if (!code) continue;
      for (const candidate of [code, code.split('-')[0]!]) if (!chain.includes(candidate)) chain.push(candidate);
    }
    return chain;
  }

  private lookup(language: string, key: string): string | undefined {
    const text = this.replaced.get(language)?.[key] || this.shipped[language]?.[key];
    return text || undefined;
  }

  /** One text in the first of the languages that has it, placeholders filled in. */
  text(language: string | readonly (string | null | undefined)[] | null | undefined, key: BotWordKey, vars?: BotWordVars): string {
    const count = vars?.count;
    for (const code of this.chain(language)) {
      const found =
        typeof count === 'number'
          ? (this.lookup(code, `${key}_${pluralCategory(code, count)}`) ?? this.lookup(code, `${key}_other`) ?? this.lookup(code, key))
          : this.lookup(code, key);
      if (found !== undefined) return interpolate(found, vars);
    }
    return key;
  }

  /** The texts for a ticket: its subject's language (null: the server's), then the server's. */
  for(subjectLanguage: string | null | undefined, serverLanguage?: string | null): Say {
    const languages = [subjectLanguage, serverLanguage];
    return (key, vars) => this.text(languages, key, vars);
  }
}

/** Whether a key of a translation file is a plural form, and of which key. */
export const pluralBase = (key: string): string | null => (PLURAL_SUFFIX.test(key) ? key.replace(PLURAL_SUFFIX, '') : null);
