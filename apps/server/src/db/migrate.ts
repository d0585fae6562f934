import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Engine } from './database';
import type { DB } from './schema';
import { initialMigration } from './migrations/0001-initial';
import { settingsMigration } from './migrations/0002-settings';
import { panelsMigration } from './migrations/0003-panels';
import { ticketsMigration } from './migrations/0004-tickets';
import { filesMigration } from './migrations/0005-files';
import { ticketJobsMigration } from './migrations/0006-ticket-jobs';
import { searchScopeMigration } from './migrations/0007-search-scope';
import { lastMessageMigration } from './migrations/0008-last-message';
import { serverSearchRangesMigration } from './migrations/0009-server-search-ranges';
import { serverChangesMigration } from './migrations/0010-server-changes';
import { staffMessagesMigration } from './migrations/0011-staff-messages';
import { ticketPartsChangesMigration } from './migrations/0012-ticket-parts-changes';
import { platformEventsMigration } from './migrations/0013-platform-events';
import { paymentsMigration } from './migrations/0014-payments';
import { planChangesMigration } from './migrations/0015-plan-changes';
import { providerCatalogMigration } from './migrations/0016-provider-catalog';
import { whitelabelBotsMigration } from './migrations/0017-whitelabel-bots';
import { webhooksMigration } from './migrations/0018-webhooks';
import { apiKeyCallsMigration } from './migrations/0019-api-key-calls';
import { translationsMigration } from './migrations/0020-translations';
import { publicStatsMigration } from './migrations/0021-public-stats';
import { botTextDefaultsMigration } from './migrations/0022-bot-text-defaults';
import { serverStatsMigration } from './migrations/0023-server-stats';
import { ticketListColumnsMigration } from './migrations/0024-ticket-list-columns';
import { serverSearchIndexMigration } from './migrations/0025-server-search-index';
import { scopedSearchWordsMigration } from './migrations/0026-scoped-search-words';
import { jobLeasesMigration } from './migrations/0027-job-leases';
import { ticketWordsMigration } from './migrations/0028-ticket-words';
import { memberTotalsMigration } from './migrations/0029-member-totals';
import { sqliteTicketWordsMigration } from './migrations/0030-sqlite-ticket-words';
import { ticketPostingsMigration } from './migrations/0031-postgres-ticket-postings';
import { memberServersMigration } from './migrations/0032-member-servers';
import { dropDocumentWordsIndexMigration } from './migrations/0033-postgres-drop-document-words-index';
import { memberSearchKeysMigration } from './migrations/0034-member-search-keys';
import { searchScopesMigration } from './migrations/0035-postgres-search-scopes';

/** Migrations are code, ordered by name; each is told the engine so it can pick column types. */
const all: Record<string, (engine: Engine) => Migration> = {
  '0001-initial': initialMigration,
  '0002-settings': settingsMigration,
  '0003-panels': panelsMigration,
  '0004-tickets': ticketsMigration,
  '0005-files': filesMigration,
  '0006-ticket-jobs': ticketJobsMigration,
  '0007-search-scope': searchScopeMigration,
  '0008-last-message': lastMessageMigration,
  '0009-server-search-ranges': serverSearchRangesMigration,
  '0010-server-changes': serverChangesMigration,
  '0011-staff-messages': staffMessagesMigration,
  '0012-ticket-parts-changes': ticketPartsChangesMigration,
  '0013-platform-events': platformEventsMigration,
  '0014-payments': paymentsMigration,
  '0015-plan-changes': planChangesMigration,
  '0016-provider-catalog': providerCatalogMigration,
  '0017-whitelabel-bots': whitelabelBotsMigration,
  '0018-webhooks': webhooksMigration,
  '0019-api-key-calls': apiKeyCallsMigration,
  '0020-translations': translationsMigration,
  '0021-public-stats': publicStatsMigration,
  '0022-bot-text-defaults': botTextDefaultsMigration,
  '0023-server-stats': serverStatsMigration,
  '0024-ticket-list-columns': ticketListColumnsMigration,
  '0025-server-search-index': serverSearchIndexMigration,
  '0026-scoped-search-words': scopedSearchWordsMigration,
  '0027-job-leases': jobLeasesMigration,
  '0028-ticket-words': ticketWordsMigration,
  '0029-member-totals': memberTotalsMigration,
  '0030-sqlite-ticket-words': sqliteTicketWordsMigration,
  '0031-postgres-ticket-postings': ticketPostingsMigration,
  '0032-member-servers': memberServersMigration,
  '0033-postgres-drop-document-words-index': dropDocumentWordsIndexMigration,
  '0034-member-search-keys': memberSearchKeysMigration,
  '0035-postgres-search-scopes': searchScopesMigration,
};

/**
 * Runs every migration not yet run; `upTo` stops after that one (tests of an upgrade use it).
 * `schema` names the PostgreSQL schema the database lives in: the migrator looks for its own
 * tables there, not in whichever schema of the database happens to have them.
 */
export async function migrateToLatest(db: Kysely<DB>, engine: Engine, upTo?: keyof typeof all, schema?: string): Promise<void> {
  const provider: MigrationProvider = {
    getMigrations: async () => Object.fromEntries(Object.entries(all).map(([name, make]) => [name, make(engine)])),
  };
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = upTo ? await migrator.migrateTo(upTo) : await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
