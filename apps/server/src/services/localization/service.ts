import { createHash } from 'node:crypto';
import type {
  Language,
  LegacyConversionResult,
  LegacyTranslationRequest,
  TranslationFileInLanguage,
  UploadTranslationRequest,
  UploadTranslationResult,
} from '@ticket/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { BadRequestError, ConflictError, NotFoundError, UpstreamError } from '../../http/errors';
import { convertLegacyDocument } from './legacy';
import type { LocalazyPush } from './localazy';
import { invalid, sourceIssues, translationIssues } from './checks';
import { pluralCategories, pluralForm, pluralGroups, PLURAL_CATEGORIES } from './plurals';
import * as repo from './repository';
import type { ShippedFile } from './shipped-files';
import type { TranslationChanges } from './translation-changes';

type Texts = Record<string, string>;

/** An answer of GET /translations/{fileName} as sent: its JSON text and the entity tag naming it. */
export interface TranslationAnswer {
  body: string;
  etag: string;
}

/** Hears a file's texts in every language, once they are known and after each change. */
export type TranslationListener = (language: string, texts: Texts) => void;

export interface LocalizationDependencies {
  db: Kysely<DB>;
  changes: TranslationChanges;
  /** The files the build ships (their texts are the base stored ones override). */
  shipped: () => ShippedFile[];
  /** Null: LOCALAZY_TOKEN is not set. */
  localazy: LocalazyPush | null;
  /** How long an answer is served from memory when other processes cannot say it changed (no Redis). */
  unsharedTtlMs?: number;
  clock?: () => number;
}

const ENGLISH = 'en';

/** A file as it reads now: its source language and source texts, and what was stored of it. */
interface FileState {
  fileName: string;
  sourceLanguage: string;
  source: Texts;
  shipped: ShippedFile | undefined;
  row: repo.FileRow | undefined;
}

const listFormat = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' });
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The translations service (SPEC §7): the languages texts can be translated into, and translation
 * files. A file's base is what the build ships (the bot's texts, the dashboard's parts); operators
 * store a file's source texts (replacing the shipped ones) and translations into one language
 * (overriding the shipped ones). A key whose source text changed reads in the source language in
 * every other language until it is translated again. Answers are kept in memory, as sent, until
 * the file changes.
 */
export class LocalizationService {
  private readonly db: Kysely<DB>;
  private shippedFiles: Map<string, ShippedFile> | null = null;
  private readonly answers = new Map<string, TranslationAnswer & { fileName: string; expiresAt: number }>();
  private readonly listeners = new Map<string, TranslationListener[]>();
  private readonly clock: () => number;
  /** The refresh the latest change notice started in this process. */
  private refreshing: Promise<void> = Promise.resolve();
  /** Counts the change notices heard: an answer read while one arrived may be older than it, and is not kept. */
  private changes = 0;

  constructor(private readonly deps: LocalizationDependencies) {
    this.db = deps.db;
    this.clock = deps.clock ?? Date.now;
    deps.changes.subscribe((fileName) => {
      this.refreshing = this.changed(fileName);
    });
  }

  // --- Languages ----------------------------------------------------------------------------

  async languages(): Promise<Language[]> {
    return repo.listLanguages(this.db);
  }

  async createLanguage(language: Language): Promise<Language> {
    const created = await repo.insertLanguage(this.db, language);
    if (!created) throw new ConflictError(`Language ${language.languageCode} exists already`, 'languageCode');
    await this.announce('*');
    return language;
  }

  /** Removes a language no server or subject speaks; English, every file's fallback, stays. */
  async deleteLanguage(code: string): Promise<void> {
    if (code === ENGLISH) throw new ConflictError('English (en) cannot be removed: it is the language every other one falls back to', 'languageCode');
    if (!(await repo.findLanguage(this.db, code))) throw new NotFoundError(`Language ${code} is not known`);
    const [servers, subjects] = await Promise.all([repo.serversSpeaking(this.db, code), repo.subjectsSpeaking(this.db, code)]);
    if (servers.length > 0 || subjects.length > 0) {
      const users = [count(servers.length, 'server', 'servers'), count(subjects.length, 'subject', 'subjects')].filter((part) => !part.startsWith('0 '));
      const names = [...servers, ...subjects.map((s) => `${s.subject} (${s.server})`)];
      const shown = names.length > 10 ? [...names.slice(0, 10), `${names.length - 10} more`] : names;
      throw new ConflictError(`Language ${code} is used by ${listFormat.format(users)}: ${shown.join(', ')}`, 'languageCode');
    }
    await repo.deleteLanguage(this.db, code);
    await this.announce('*');
  }

  // --- Reading ------------------------------------------------------------------------------

  /** A file in one language (its source language when none is given), as JSON text with its entity tag. */
  async read(fileName: string, language?: string): Promise<TranslationAnswer> {
    const key = `${fileName}\n${language ?? ''}`;
    const kept = this.answers.get(key);
    if (kept && kept.expiresAt > this.clock()) return kept;
    const changesBefore = this.changes;
    const file = await this.file(fileName);
    if (!file) throw new NotFoundError(`No translation file is named ${fileName}`);
    const target = language ?? file.sourceLanguage;
    if (target !== file.sourceLanguage && !(await repo.findLanguage(this.db, target))) {
      throw new NotFoundError(`Language ${target} is not known`);
    }
    const { texts, untranslated } = await this.textsIn(file, target);
    const answer: TranslationFileInLanguage = { fileName, sourceLanguage: file.sourceLanguage, language: target, translations: texts, untranslated };
    const body = JSON.stringify(answer);
    const entry = {
      fileName,
      body,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`,
      expiresAt: this.clock() + (this.deps.changes.shared ? Number.POSITIVE_INFINITY : (this.deps.unsharedTtlMs ?? 30_000)),
    };
    if (this.changes === changesBefore) this.answers.set(key, entry);
    return entry;
  }

  /**
   * Tells `listener` the file's texts in every language now, and again after each change (in any
   * process, with Redis): how the bot's words follow corrected translations.
   */
  async watch(fileName: string, listener: TranslationListener): Promise<void> {
    this.listeners.set(fileName, [...(this.listeners.get(fileName) ?? []), listener]);
    await this.tell(fileName, [listener]);
  }

  private async tell(fileName: string, listeners: TranslationListener[]): Promise<void> {
    const file = await this.file(fileName);
    if (!file) return;
    for (const language of await this.languagesOf(file)) {
      const { texts } = await this.textsIn(file, language);
      for (const listener of listeners) listener(language, texts);
    }
  }

  /**
   * Tells every process that a file changed, and waits until this one's listeners (the bot's
   * words) have its new texts, so that what the caller is answered is what the bot now says: the
   * notice is heard here at once (translation-changes.ts) and starts that refresh.
   */
  private async announce(fileName: string): Promise<void> {
    await this.deps.changes.publish(fileName);
    await this.refreshing;
  }

  private async changed(fileName: string): Promise<void> {
    this.changes += 1;
    for (const [key, answer] of this.answers) if (fileName === '*' || answer.fileName === fileName) this.answers.delete(key);
    const names = fileName === '*' ? [...this.listeners.keys()] : [fileName];
    for (const name of names) {
      const listeners = this.listeners.get(name);
      if (listeners) await this.tell(name, listeners).catch(() => undefined);
    }
  }

  private shipped(fileName: string): ShippedFile | undefined {
    this.shippedFiles ??= new Map(this.deps.shipped().map((file) => [file.fileName, file]));
    return this.shippedFiles.get(fileName);
  }

  private async file(fileName: string, db: Kysely<DB> = this.db): Promise<FileState | null> {
    const shipped = this.shipped(fileName);
    const row = await repo.findFile(db, fileName);
    if (!shipped && !row) return null;
    const sourceLanguage = row?.sourceLanguage ?? shipped!.sourceLanguage;
    let source: Texts;
    if (row?.sourceStored) {
      source = {};
      for (const [key, text] of await repo.storedTexts(db, fileName, sourceLanguage)) if (text !== null) source[key] = text;
    } else {
      source = { ...(shipped?.texts[sourceLanguage] ?? {}) };
    }
    return { fileName, sourceLanguage, source, shipped, row };
  }

  /** Every language the file has texts in or may be read in. */
  private async languagesOf(file: FileState): Promise<string[]> {
    const known = (await repo.listLanguages(this.db)).map((language) => language.languageCode);
    const stored = await repo.storedLanguages(this.db, file.fileName);
    return [...new Set([file.sourceLanguage, ...known, ...stored, ...Object.keys(file.shipped?.texts ?? {})])];
  }

  /** The file's texts in a language: each source key (each plural form the language has), translated or else in the source language. */
  private async textsIn(file: FileState, language: string, db: Kysely<DB> = this.db): Promise<{ texts: Texts; untranslated: string[] }> {
    if (language === file.sourceLanguage) return { texts: { ...file.source }, untranslated: [] };
    const stored = await repo.storedTexts(db, file.fileName, language);
    const shipped = file.shipped?.texts[language] ?? {};
    const translation = (key: string): string | undefined => {
      if (stored.has(key)) return stored.get(key) ?? undefined;
      return shipped[key] || undefined;
    };
    const texts: Texts = {};
    const untranslated: string[] = [];
    const groups = pluralGroups(Object.keys(file.source));
    const categories = pluralCategories(language);
    const done = new Set<string>();
    for (const [key, sourceText] of Object.entries(file.source)) {
      const form = pluralForm(key);
      if (form && groups.has(form.base)) {
        if (done.has(form.base)) continue;
        done.add(form.base);
        const wanted = new Set<string>(categories);
        // An explicit zero is read for a count of 0 in any language, where it is given.
        if (groups.get(form.base)!.has('zero')) wanted.add('zero');
        for (const category of PLURAL_CATEGORIES.filter((c) => wanted.has(c))) {
          const target = `${form.base}_${category}`;
          const found = translation(target);
          if (found !== undefined) texts[target] = found;
          else {
            texts[target] = file.source[target] ?? file.source[`${form.base}_other`] ?? sourceText;
            untranslated.push(target);
          }
        }
        continue;
      }
      const found = translation(key);
      if (found !== undefined) texts[key] = found;
      else {
        texts[key] = sourceText;
        untranslated.push(key);
      }
    }
    return { texts, untranslated };
  }

  // --- Uploading ----------------------------------------------------------------------------

  /**
   * Stores an upload: the file's source texts when it is in the file's source language (or the
   * file is new), else translations of the file into that language.
   */
  async upload(request: UploadTranslationRequest): Promise<UploadTranslationResult> {
    if (request.addToLocalazy && !this.deps.localazy) {
      throw new ConflictError('Localazy is not configured: set LOCALAZY_TOKEN to push files to Localazy, or upload with addToLocalazy false', 'addToLocalazy');
    }
    const existing = await this.file(request.fileName);
    const isSource = !existing || existing.sourceLanguage === request.sourceLanguage;
    if (!isSource && request.addToLocalazy) {
      throw new BadRequestError('Only source texts are pushed to Localazy; translations come back from it', 'addToLocalazy');
    }
    if (!(await repo.findLanguage(this.db, request.sourceLanguage))) {
      throw new BadRequestError(`Language ${request.sourceLanguage} is not known: add it first (POST /languages)`, 'sourceLanguage');
    }
    const needsTranslation = isSource
      ? await this.storeSource(existing, request)
      : (await this.storeTranslation(existing!, request.sourceLanguage, request.document), []);
    await this.announce(request.fileName);
    const file = (await this.file(request.fileName))!;
    const { texts, untranslated } = await this.textsIn(file, request.sourceLanguage);
    let pushedToLocalazy = false;
    if (isSource && request.addToLocalazy && this.deps.localazy) {
      try {
        await this.deps.localazy({ fileName: file.fileName, sourceLanguage: file.sourceLanguage, texts: file.source });
        pushedToLocalazy = true;
      } catch (error) {
        throw new UpstreamError(`The file was stored, but pushing it to Localazy failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return {
      fileName: file.fileName,
      sourceLanguage: file.sourceLanguage,
      language: request.sourceLanguage,
      translations: texts,
      untranslated,
      needsTranslation,
      pushedToLocalazy,
    };
  }

  /** Replaces the source texts; answers the keys whose text changed (their translations are due again). */
  private async storeSource(existing: FileState | null, request: UploadTranslationRequest): Promise<string[]> {
    const language = request.sourceLanguage;
    const document = request.document;
    const issues = sourceIssues(language, document);
    if (issues.length > 0) throw invalid(issues);

    const previous = existing?.source ?? {};
    const changed = Object.keys(document).filter((key) => key in previous && previous[key] !== document[key]);
    const removed = Object.keys(previous).filter((key) => !(key in document));
    const changedBases = new Set(changed.map((key) => pluralForm(key)?.base ?? key));
    const removedKeys = removed.flatMap((key) => {
      const base = pluralForm(key)?.base;
      return base && !Object.keys(document).some((k) => pluralForm(k)?.base === base) ? PLURAL_CATEGORIES.map((c) => `${base}_${c}`) : [key];
    });

    // Translations of changed keys are due again: only those that exist are marked, the others read in the source language anyway.
    const marks = new Map<string, [string, null][]>();
    if (existing && changedBases.size > 0) {
      const documentGroups = pluralGroups(Object.keys(document));
      for (const other of (await this.languagesOf(existing)).filter((l) => l !== language)) {
        const stored = await repo.storedTexts(this.db, existing.fileName, other);
        const forms = [...pluralCategories(other), 'zero'];
        const due: [string, null][] = [];
        for (const base of changedBases) {
          const targets = documentGroups.has(base) ? forms.map((c) => `${base}_${c}`) : [base];
          for (const target of targets) if (hasText(existing, other, target, stored)) due.push([target, null]);
        }
        if (due.length > 0) marks.set(other, due);
      }
    }

    await this.db.transaction().execute(async (trx) => {
      for (const [other, due] of marks) await repo.putTexts(trx, request.fileName, other, due);
      if (removedKeys.length > 0) await repo.deleteKeys(trx, request.fileName, removedKeys);
      await repo.putTexts(trx, request.fileName, language, Object.entries(document));
      await repo.touchFile(trx, {
        fileName: request.fileName,
        sourceLanguage: language,
        sourceStored: true,
        ...(request.fileDescription !== undefined ? { description: request.fileDescription } : {}),
      });
    });
    return changed.sort();
  }

  /** Stores translations into one language, checked against the source: keys, placeholders, plural forms. */
  private async storeTranslation(file: FileState, language: string, document: Texts): Promise<void> {
    const issues = translationIssues(file.fileName, file.source, language, document);
    if (issues.length > 0) throw invalid(issues);
    await this.db.transaction().execute(async (trx) => {
      await repo.putTexts(trx, file.fileName, language, Object.entries(document));
      await repo.touchFile(trx, { fileName: file.fileName, sourceLanguage: file.sourceLanguage });
    });
  }

  // --- Legacy documents ---------------------------------------------------------------------

  convertLegacy(request: LegacyTranslationRequest): LegacyConversionResult {
    const { translations, unconverted, needsReview } = convertLegacyDocument(request.sourceLanguage, request.document);
    return { fileName: request.fileName, sourceLanguage: request.sourceLanguage, translations, unconverted, needsReview };
  }

  async close(): Promise<void> {
    await this.deps.changes.close();
  }
}

const hasText = (file: FileState, language: string, key: string, stored: Map<string, string | null>) =>
  stored.has(key) ? stored.get(key) !== null : Boolean(file.shipped?.texts[language]?.[key]);
