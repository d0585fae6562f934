import { InvalidInputError } from '../../http/errors';
import { braceProblem, placeholders, pluralCategories, pluralForm, pluralGroups } from './plurals';

/** What is wrong with one key of an upload, named as the request names it (`document.<key>`). */
export type Issue = { field: string; message: string };
type Texts = Record<string, string>;

/** Source texts: well-formed placeholders, and each plural group with exactly the forms of its language. */
export function sourceIssues(language: string, document: Texts): Issue[] {
  const issues: Issue[] = [];
  for (const [key, text] of Object.entries(document)) {
    const problem = braceProblem(text);
    if (problem) issues.push({ field: `document.${key}`, message: problem });
  }
  issues.push(...pluralIssues(Object.keys(document), language));
  return issues;
}

/**
 * Translations into `language`, against the file's source texts: only its keys, the same
 * placeholders (a plural form may leave out `{{count}}`), and every plural form of the language for
 * each plural group the document translates.
 */
export function translationIssues(fileName: string, source: Texts, language: string, document: Texts): Issue[] {
  const issues: Issue[] = [];
  const groups = pluralGroups(Object.keys(source));
  const categories = pluralCategories(language);
  const touched = new Map<string, Set<string>>();
  for (const [key, text] of Object.entries(document)) {
    const field = `document.${key}`;
    const form = pluralForm(key);
    let expected: Set<string>;
    let optional = new Set<string>();
    if (form && groups.has(form.base)) {
      if (form.category !== 'zero' && !categories.includes(form.category)) {
        issues.push({ field, message: `${language} has no "${form.category}" plural form (its forms: ${categories.join(', ')})` });
        continue;
      }
      touched.set(form.base, (touched.get(form.base) ?? new Set()).add(form.category));
      const sourceForms = [...groups.get(form.base)!].map((c) => source[`${form.base}_${c}`] ?? '');
      expected = new Set(sourceForms.flatMap((t) => [...placeholders(t)]));
      // A singular form may say "one" in words rather than with its number.
      optional = new Set(['count']);
    } else if (key in source) {
      expected = placeholders(source[key]!);
    } else {
      issues.push({ field, message: `is not a key of ${fileName}` });
      continue;
    }
    const problem = braceProblem(text);
    if (problem) {
      issues.push({ field, message: problem });
      continue;
    }
    const used = placeholders(text);
    const unknown = [...used].filter((name) => !expected.has(name));
    const missing = [...expected].filter((name) => !used.has(name) && !optional.has(name));
    if (unknown.length > 0) issues.push({ field, message: `uses ${unknown.map((n) => `{{${n}}}`).join(', ')}, which the source text does not have` });
    if (missing.length > 0) issues.push({ field, message: `leaves out ${missing.map((n) => `{{${n}}}`).join(', ')} of the source text` });
  }
  for (const [base, given] of touched) {
    const missing = categories.filter((category) => !given.has(category));
    if (missing.length > 0) {
      issues.push({ field: `document.${base}_${missing[0]}`, message: `is missing: ${language} needs the plural forms ${categories.map((c) => `${base}_${c}`).join(', ')}` });
    }
  }
  return issues;
}

/** Every plural group of a source document must have exactly the forms of its language (an explicit zero may be added). */
function pluralIssues(keys: string[], language: string): Issue[] {
  const issues: Issue[] = [];
  const categories = pluralCategories(language);
  for (const [base, given] of pluralGroups(keys)) {
    for (const category of given) {
      if (category !== 'zero' && !categories.includes(category)) {
        issues.push({ field: `document.${base}_${category}`, message: `${language} has no "${category}" plural form (its forms: ${categories.join(', ')})` });
      }
    }
    const missing = categories.filter((category) => !given.has(category));
    if (missing.length > 0) {
      issues.push({ field: `document.${base}_${missing[0]}`, message: `is missing: ${language} needs the plural forms ${categories.map((c) => `${base}_${c}`).join(', ')}` });
    }
  }
  return issues;
}

/** One 400 answer naming every bad key, in the message and in `issues`. */
export function invalid(issues: Issue[]): InvalidInputError {
  const keys = [...new Set(issues.map((issue) => issue.field.replace(/^document\./, '')))];
  return new InvalidInputError(`The document has problems with ${keys.length === 1 ? 'key' : 'keys'} ${keys.join(', ')}: ${issues.map((i) => `${i.field.replace(/^document\./, '')} ${i.message}`).join('; ')}`, issues);
}
