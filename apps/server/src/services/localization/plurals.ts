/** Plural forms and placeholders of translation texts, as i18next v4 reads them. */

export const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
export type PluralCategory = (typeof PLURAL_CATEGORIES)[number];

const SUFFIX = /^(.+)_(zero|one|two|few|many|other)$/;

/** A plural form's key split into its group and category; null for a key that is no plural form. */
export function pluralForm(key: string): { base: string; category: PluralCategory } | null {
  const match = SUFFIX.exec(key);
  return match ? { base: match[1]!, category: match[2] as PluralCategory } : null;
}

const rules = new Map<string, Intl.PluralRules>();
export function pluralRules(language: string): Intl.PluralRules {
  let found = rules.get(language);
  if (!found) {
    try {
      found = new Intl.PluralRules(language);
    } catch {
      found = new Intl.PluralRules('en');
    }
    rules.set(language, found);
  }
  return found;
}

/** The plural forms a language needs, in the order of PLURAL_CATEGORIES. */
export function pluralCategories(language: string): PluralCategory[] {
  const wanted = new Set(pluralRules(language).resolvedOptions().pluralCategories);
  return PLURAL_CATEGORIES.filter((category) => wanted.has(category));
}

/** The placeholders of a text, `{{name}}` or `{{name, format}}`, by name. */
export function placeholders(text: string): Set<string> {
  return new Set([...text.matchAll(/\{\{\s*-?\s*([\w.]+)[^{}]*\}\}/g)].map((match) => match[1]!));
}

/** What is wrong with the braces of a text: a `{{` never closed, or a `}}` never opened. */
export function braceProblem(text: string): string | null {
  const stripped = text.replace(/\{\{\s*-?\s*[\w.]+[^{}]*\}\}/g, '');
  if (stripped.includes('{{')) return 'has a "{{" that does not start a placeholder such as {{name}}';
  if (stripped.includes('}}')) return 'has a "}}" that does not end a placeholder such as {{name}}';
  return null;
}

/** Keys grouped as the source reads them: plural groups by base, every other key on its own. */
export function pluralGroups(keys: Iterable<string>): Map<string, Set<PluralCategory>> {
  const groups = new Map<string, Set<PluralCategory>>();
  for (const key of keys) {
    const form = pluralForm(key);
    if (!form) continue;
    const group = groups.get(form.base) ?? new Set<PluralCategory>();
    group.add(form.category);
    groups.set(form.base, group);
  }
  return groups;
}
