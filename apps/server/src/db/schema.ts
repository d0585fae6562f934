import type { Generated } from 'kysely';

/** Row shapes as stored. Timestamps are ISO-8601 text, flags 0/1, JSON text/jsonb. */
export interface UsersTable {
  id: string;
  username: string;
  global_name: string | null;
  avatar: string | null;
  email: string | null;
  locale: string | null;
  /** AES-256-GCM sealed platform tokens. */
  access_token: string | null;
  refresh_token: string | null;
  token_expires_at: string | null;
  scope: string | null;
  /** When the guild list and roles were last read from the platform. */
  synced_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  last_used_at: string;
  user_agent: string | null;
  ip: string | null;
}

export interface ServersTable {
  id: string;
  name: string;
  icon: string | null;
  owner_id: string | null;
  /** 1 while the bot is in the server. */
  active: number;
  plan: string;
  created_at: string;
  updated_at: string;
}

export interface MembershipsTable {
  user_id: string;
  server_id: string;
  role: string;
  nickname: string | null;
  avatar: string | null;
  role_ids: unknown;
  updated_at: string;
}

export interface ApiKeysTable {
  server_id: string;
  key_hash: string;
  key_prefix: string;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
}

export interface TestimonialsTable {
  id: Generated<number>;
  testimonial: string;
  author: string;
  server: string;
  server_size: number;
  position: number;
}

export interface ServerSettingsTable {
  server_id: string;
  language: string;
  /** 1 when anyone may see the server's statistics (migration 0021). */
  public_stats: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface SubjectsTable {
  id: string;
  server_id: string;
  name: string;
  name_key: string;
  deleted: number;
  active: number;
  position: number;
  inherits_from: string | null;
  /** Every setting group of the subject as stored (own values, before inheritance). */
  settings: unknown;
  created_at: string;
  updated_at: string;
  /** 1 when the server's plan ending made it inactive; it comes back when the server is paid for again (migration 0014). */
  plan_inactive: Generated<number>;
}

export interface TemplatesTable {
  id: string;
  server_id: string;
  subject_id: string;
  position: number;
  /** The question without its identity: type, question, slug, answerFormat, values. */
  question: unknown;
  created_at: string;
  updated_at: string;
}

export interface AuditLogTable {
  id: string;
  server_id: string;
  subject_id: string | null;
  actor_kind: string;
  actor_id: string | null;
  action: string;
  path: string | null;
  old_value: unknown;
  new_value: unknown;
  created_at: string;
}

export interface PanelsTable {
  id: string;
  server_id: string;
  type: string;
  name: string;
  draft: number;
  channel_id: string | null;
  message_id: string | null;
  content: unknown;
  last_sent: string | null;
  created_at: string;
  updated_at: string;
}

export interface TicketsTable {
  id: string;
  server_id: string;
  subject_id: string;
  /** Running number within the server. */
  number: number;
  name: string;
  author_id: string;
  assignee_id: string | null;
  state: string;
  channel_id: string | null;
  template_answers: unknown;
  created_at: string;
  last_activity_at: string;
  closed_at: string | null;
  closed_by: string | null;
  close_reason: string | null;
  close_force: number | null;
  deleted: number;
  /** SQLite: the ticket's stable number in the search index (migration 0007); null on PostgreSQL. */
  search_key: number | null;
  /** The newest message that is not deleted (migration 0008). */
  last_message_id: string | null;
  /** When staff first answered in the ticket (migration 0023). */
  answered_at: string | null;
  /** The newest message's author, time and first 200 characters, as lists show it (migration 0024). */
  last_message_author: string | null;
  last_message_at: string | null;
  last_message_preview: string | null;
  /** The staff who wrote in the ticket, comma-separated, in the order they first did (migration 0024). */
  attendees: string | null;
}

export interface TicketMembersTable {
  ticket_id: string;
  user_id: string;
  added_at: string;
  /** The ticket's last activity, for a member's own list across servers (migration 0024). */
  last_activity_at: string | null;
  /** The ticket's server, written with the membership (migration 0032). */
  server_id: string;
  /** SQLite: the ticket's search key, written with the membership (migration 0034); null on PostgreSQL. */
  search_key: number | null;
}

export interface TicketMessagesTable {
  id: string;
  ticket_id: string;
  server_id: string;
  external_id: string | null;
  author_id: string;
  message_type: string;
  /** content, embeds, mentions, attachments */
  body: unknown;
  /** earlier versions, oldest first */
  history: unknown;
  modified: number;
  deleted: number;
  deleted_at: string | null;
  created_at: string;
}

export interface TicketReactionsTable {
  message_id: string;
  emoji_key: string;
  emoji: unknown;
  user_id: string;
  created_at: string;
}

export interface TicketSearchTable {
  ticket_id: string;
  server_id: string;
  kind: string;
  ref_id: string;
  body: string;
}

/**
 * SQLite (migration 0030): the words of all a ticket's search documents, an FTS5 table whose rowid
 * is the ticket's search key and whose `words` column is the text it indexes, read by raw SQL only.
 */
export interface TicketWordsTable {
  words: string;
}

/** PostgreSQL (migration 0031): each scoped word of a ticket's search documents, once per ticket. */
export interface TicketPostingsTable {
  word: string;
  ticket_id: string;
}

/** How many tickets each user is a member of, kept by triggers on ticket_members (migration 0029). */
export interface MemberTotalsTable {
  user_id: string;
  tickets: number;
}

/** The servers where each user is a member of a ticket, and of how many there, kept by triggers on ticket_members (migration 0032). */
export interface MemberServersTable {
  user_id: string;
  server_id: string;
  tickets: number;
}

/** SQLite only: each server's number in the search index's rowid layout (migration 0009). */
export interface SearchBasesTable {
  server_id: string;
  base: number;
}

/** PostgreSQL only: the servers of each search scope, each server that has had a ticket (migration 0035). */
export interface SearchScopesTable {
  scope: string;
  server_id: string;
}

/** A counter per server that every change to what its ticket lists show increases (migration 0010). */
export interface ServerChangesTable {
  server_id: string;
  version: number;
}

/** Installation-wide totals: tickets, messages, open_tickets (migration 0021). */
export interface CountersTable {
  name: string;
  value: number;
}

/** A server's statistics kept as counters (migration 0023). */
export interface ServerTotalsTable {
  server_id: string;
  tickets: number;
  open_tickets: number;
  messages: number;
}

export interface ServerDailyStatsTable {
  server_id: string;
  /** A UTC day, YYYY-MM-DD. */
  day: string;
  tickets: number;
  messages: number;
  /** First staff answers to the tickets opened that day, and the milliseconds they took in all. */
  responses: number;
  response_ms: number;
}

export interface ServerSubjectDailyTable {
  server_id: string;
  subject_id: string;
  day: string;
  tickets: number;
}

export interface ServerSupporterDailyTable {
  server_id: string;
  author_id: string;
  day: string;
  /** Tickets in which this staff member first answered that day. */
  tickets: number;
}

export interface FilesTable {
  id: string;
  server_id: string;
  ticket_id: string;
  /** The subject whose storage the file counts against (and whose retention applies). */
  subject_id: string;
  name: string;
  content_type: string;
  size: number;
  sha256: string;
  storage_key: string;
  width: number | null;
  height: number | null;
  blur_hash: string | null;
  /** The platform attachment the file was cloned from, so messages can find their stored copies. */
  attachment_id: string | null;
  uploader_kind: string;
  uploader_id: string | null;
  created_at: string;
  /** Set when the file is deleted; the row goes once its bytes are removed. */
  deleted_at: string | null;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  servers: ServersTable;
  memberships: MembershipsTable;
  api_keys: ApiKeysTable;
  testimonials: TestimonialsTable;
  server_settings: ServerSettingsTable;
  subjects: SubjectsTable;
  templates: TemplatesTable;
  audit_log: AuditLogTable;
  panels: PanelsTable;
  tickets: TicketsTable;
  ticket_members: TicketMembersTable;
  ticket_messages: TicketMessagesTable;
  ticket_reactions: TicketReactionsTable;
  ticket_search: TicketSearchTable;
  search_bases: SearchBasesTable;
  search_scopes: SearchScopesTable;
  ticket_words: TicketWordsTable;
  ticket_postings: TicketPostingsTable;
  member_totals: MemberTotalsTable;
  member_servers: MemberServersTable;
  server_changes: ServerChangesTable;
  counters: CountersTable;
  server_totals: ServerTotalsTable;
  server_daily_stats: ServerDailyStatsTable;
  server_subject_daily: ServerSubjectDailyTable;
  server_supporter_daily: ServerSupporterDailyTable;
  files: FilesTable;
  ticket_jobs: TicketJobsTable;
  leases: LeasesTable;
  platform_events: PlatformEventsTable;
  subscriptions: SubscriptionsTable;
  checkout_sessions: CheckoutSessionsTable;
  plan_changes: PlanChangesTable;
  provider_catalog: ProviderCatalogTable;
  whitelabel_bots: WhitelabelBotsTable;
  payment_events: PaymentEventsTable;
  receipts: ReceiptsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  api_key_calls: ApiKeyCallsTable;
  languages: LanguagesTable;
  translation_files: TranslationFilesTable;
  translation_texts: TranslationTextsTable;
}

/** A ticket's close waiting for the subject's close delay (migration 0006). */
export interface TicketJobsTable {
  id: string;
  ticket_id: string;
  server_id: string;
  kind: 'close';
  /** ISO time at or after which the job runs. */
  run_at: string;
  /** Who asked for it: the close is recorded as theirs. */
  actor_id: string;
  reason: string | null;
  created_at: string;
  /** While a process runs the job: until when its claim holds, and whose it is (migration 0027). */
  claimed_until: string | null;
  claim_token: string | null;
}

/** A named piece of background work and the process doing it until `until` (migration 0027). */
export interface LeasesTable {
  name: string;
  holder: string;
  until: string;
}


/** A gateway event the bot runtime reported, kept so a repeated report is done once (migration 0013). */
export interface PlatformEventsTable {
  event_id: string;
  server_id: string;
  type: string;
  received_at: string;
}

/** A provider's subscription as we know it (migration 0014). `user_id` is the buyer. */
export interface SubscriptionsTable {
  id: string;
  user_id: string;
  provider: string;
  provider_subscription_id: string;
  provider_customer_id: string | null;
  /** active, canceled or paused */
  state: string;
  plan_type: string;
  plan_interval: string;
  period_start: string | null;
  current_period_end: string | null;
  cancel_at_period_end: number;
  server_id: string | null;
  /** 1 while it gives its server the plan. */
  applied: number;
  last_transferred: string | null;
  scheduled_plan_type: string | null;
  scheduled_plan_interval: string | null;
  scheduled_effective_date: string | null;
  first_paid_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A checkout started for a server, by the provider's session id (migration 0014). */
export interface CheckoutSessionsTable {
  provider: string;
  session_id: string;
  server_id: string;
  user_id: string;
  plan_type: string;
  plan_interval: string;
  /** open, complete or expired */
  status: string;
  subscription_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A plan change waiting for the buyer at the provider (migration 0015). */
export interface PlanChangesTable {
  id: string;
  provider: string;
  /** What the result page sends back: the Stripe invoice id, or the PayPal subscription id. */
  token: string;
  subscription_id: string;
  server_id: string | null;
  user_id: string;
  plan_type: string;
  plan_interval: string;
  /** The PayPal plan the subscription was revised to. */
  provider_plan_id: string | null;
  /** open, complete, failed or replaced */
  status: string;
  created_at: string;
  updated_at: string;
}

/**
 * An object made once at a payment provider and reused (migration 0016): a PayPal catalog product
 * per paid plan type, a billing plan per plan type, interval, price, currency and product.
 */
export interface ProviderCatalogTable {
  provider: string;
  kind: 'product' | 'plan';
  /** Ours: what the object stands for (unique with provider and kind). */
  key: string;
  /** The provider's id of the object. */
  provider_id: string;
  /** When this provider object was recorded. */
  created_at: string;
}

/** A server's white-label bot (migration 0017); a removed one stays, stopped, without its token. */
export interface WhitelabelBotsTable {
  server_id: string;
  /** server_id >> 22: the runner shard is shard_key % shardCount. */
  shard_key: number;
  /** The bot user's id. */
  user_id: string;
  /** The application's id. */
  client_id: string;
  name: string;
  /** The bot user's avatar hash. */
  avatar: string | null;
  /** The application's Ed25519 public key (hex), which its interactions are signed with. */
  public_key: string;
  /** AES-256-GCM sealed bot token; null once removed. */
  token_sealed: string | null;
  activity: string | null;
  /** NotRunning, Starting, Running or Failed */
  status: string;
  status_message: string | null;
  status_at: string;
  revision: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

/** A provider's webhook event, kept so it is applied once (migration 0014). */
export interface PaymentEventsTable {
  provider: string;
  event_id: string;
  type: string;
  received_at: string;
}

/** A payment or refund (migration 0014); `number` runs on. */
export interface ReceiptsTable {
  number: Generated<number>;
  subscription_id: string;
  user_id: string;
  server_id: string | null;
  kind: 'payment' | 'refund';
  plan_type: string;
  plan_interval: string;
  period_start: string | null;
  period_end: string | null;
  amount_cents: number;
  currency: string;
  provider: string;
  /** The invoice (payment) or refund id. */
  provider_payment_id: string;
  /** The charge a payment was taken by, so the provider's refund of it finds the payment. */
  provider_charge_id: string | null;
  /** round(2 % of the amount), SPEC §9 */
  carbon_removal_cents: number;
  created_at: string;
}

/** A server's outgoing webhook endpoint (migration 0018). */
export interface WebhookEndpointsTable {
  id: string;
  server_id: string;
  url: string;
  description: string | null;
  /** JSON text: the event types it takes. */
  events: string;
  enabled: number;
  /** AES-256-GCM sealed signing secret. */
  secret: string;
  /** The secret's prefix and last four characters, to tell secrets apart. */
  secret_hint: string;
  created_at: string;
  updated_at: string;
}

/** One event for one endpoint, from the outbox write to its last attempt (migration 0018). */
export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  server_id: string;
  /** The event's id, the body's `id` and the Webhook-Id header: kept by a redelivery. */
  event_id: string;
  event_type: string;
  /** The JSON body exactly as signed and sent. */
  payload: string;
  /** pending, delivered or failed */
  status: string;
  attempts: number;
  /** JSON text: every attempt (attemptedAt, statusCode, error, durationMs). */
  history: string;
  next_attempt_at: string | null;
  first_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  /** A runner holds the delivery until then (its lease), under its own token. */
  claimed_until: string | null;
  claim_token: string | null;
  redelivery_of: string | null;
  created_at: string;
  updated_at: string;
}

/** One call made with a server's API key (migration 0019). */
export interface ApiKeyCallsTable {
  id: string;
  server_id: string;
  /** The first characters of the key that made the call. */
  key_prefix: string;
  /** When the call arrived. */
  at: string;
  method: string;
  /** The route as routed, e.g. /api/settings/servers/:serverId/panels. */
  route: string;
  /** The path as called, without its query string. */
  path: string;
  status: number;
  duration_ms: number;
  /** 1 when the key's rate limit refused the call. */
  rate_limited: number;
}

/** A language texts can be translated into (migration 0020): the UI's 39, and those operators add. */
export interface LanguagesTable {
  language_code: string;
  name: string;
  position: number;
  created_at: string;
}

/** What was stored of a translation file over its shipped texts, if any (migration 0020). */
export interface TranslationFilesTable {
  file_name: string;
  source_language: string;
  description: string | null;
  /** 1 once its source texts were uploaded: they replace the shipped ones, key for key. */
  source_stored: number;
  /** Counts the file's changes. */
  version: number;
  updated_at: string;
}

/** A stored text of a translation file: a source text, a translation, or (null) the mark that a translation is due again. */
export interface TranslationTextsTable {
  file_name: string;
  language: string;
  key: string;
  text: string | null;
  updated_at: string;
}
