import {
  PLANS,
  plansWith,
  type CreateWhitelabelRequest,
  type PagedResult,
  type PlanType,
  type UpdateWhitelabelRequest,
  type WhitelabelChangeNotice,
  type WhitelabelEntry,
  type WhitelabelListQuery,
  type WhitelabelStatus,
  type WhitelabelStatusReport,
} from '@ticket/contracts';
import type { Kysely } from 'kysely';
import type { PlatformConfig } from '../../config';
import { isUniqueViolation, now } from '../../db/database';
import { withLease } from '../../db/leases';
import type { DB } from '../../db/schema';
import { BadRequestError, ConflictError, LimitReachedError, NotFoundError } from '../../http/errors';
import type { Caller } from '../../http/route';
import { readBotIdentity, type BotIdentity } from '../../platform/bot-identity';
import { seal, unseal } from '../../platform/crypto';
import type { PlanChange } from '../../platform/plan-changes';
import type { ChangeNotices } from './change-notices';
import * as repo from './repository';

/** A white-label bot that runs: what the API needs to act on its server as it. */
export interface RunningWhitelabelBot {
  serverId: string;
  clientId: string;
  userId: string;
  revision: number;
  token: string;
}

export interface DeploymentDependencies {
  db: Kysely<DB>;
  platform: PlatformConfig;
  /** The AES-256-GCM key bot tokens are sealed with (the same as the platform's OAuth tokens). */
  encryptionKey: Buffer;
  avatarUrl: (userId: string, hash: string | null) => string | null;
  notices: ChangeNotices;
  /** Who a token belongs to; the platform's REST API unless a test says otherwise. */
  identify?: (token: string) => Promise<BotIdentity>;
}

export const OFF_PLAN_LEASE = 'deployment.off-plan';
const WHITELABEL_PLANS = plansWith('whitelabel');

const planName = (plan: string) => plan.charAt(0).toUpperCase() + plan.slice(1);
const ENTERPRISE = planName(WHITELABEL_PLANS[0] ?? 'enterprise');

/**
 * White-label bots (SPEC §3 "White-label entry", §4 states): a server's admins set one up with
 * its token, change its token or activity, start it and remove it; the bot runner lists them
 * (per shard), reads their tokens and reports their status. What a bot is on the platform is read
 * with its token; the token is kept sealed and leaves only to operators who ask for it.
 */
export class DeploymentService {
  private readonly db: Kysely<DB>;
  private readonly identify: (token: string) => Promise<BotIdentity>;

  constructor(private readonly deps: DeploymentDependencies) {
    this.db = deps.db;
    this.identify = deps.identify ?? ((token) => readBotIdentity(deps.platform, token));
  }

  // --- Reading ------------------------------------------------------------------------------

  async get(serverId: string): Promise<WhitelabelEntry> {
    return this.entry(await this.bot(serverId), false);
  }

  /** Operators and the runner: every bot, a page at a time; `shardId` of `shardCount` keeps the servers on that shard. */
  async list(query: WhitelabelListQuery): Promise<PagedResult<WhitelabelEntry>> {
    if (query.shardId !== undefined && query.shardCount === undefined) throw new BadRequestError('shardCount is required with shardId', 'shardCount');
    if (query.shardId !== undefined && query.shardCount !== undefined && query.shardId >= query.shardCount) {
      throw new BadRequestError(`shardId must be below shardCount (${query.shardCount})`, 'shardId');
    }
    const shard = query.shardId === undefined ? null : { id: query.shardId, count: query.shardCount! };
    const { rows, total } = await repo.listBots(this.db, shard, query.Page, query.Amount);
    return {
      page: query.Page,
      maxPage: Math.max(1, Math.ceil(total / query.Amount)),
      elements: rows.map((row) => this.entry(row, query.includeToken === true)),
    };
  }

  async bulk(serverIds: string[], includeToken: boolean): Promise<WhitelabelEntry[]> {
    const rows = await repo.botsOf(this.db, [...new Set(serverIds)]);
    return rows.map((row) => this.entry(row, includeToken));
  }

  // --- For the rest of the server (see index.ts: WhitelabelLookup) ------------------------------

  /** The public key interactions of this application are signed with, when it is a (not removed) white-label bot. */
  async applicationPublicKey(applicationId: string): Promise<string | null> {
    return (await repo.botOfApplication(this.db, applicationId))?.public_key ?? null;
  }

  /** The server's bot while the runner says it runs (the API then speaks as it), with its token unsealed. */
  async runningBot(serverId: string): Promise<RunningWhitelabelBot | null> {
    const row = await repo.findBot(this.db, serverId);
    return row && row.status === 'Running' && row.token_sealed ? this.running(row) : null;
  }

  /** Every bot that runs, as runningBot answers each. */
  async runningBots(): Promise<RunningWhitelabelBot[]> {
    return (await repo.runningBots(this.db)).map((row) => this.running(row));
  }

  private running(row: repo.WhitelabelRow): RunningWhitelabelBot {
    return { serverId: row.server_id, clientId: row.client_id, userId: row.user_id, revision: row.revision, token: unseal(row.token_sealed!, this.deps.encryptionKey) };
  }

  // --- Admins' changes ------------------------------------------------------------------------

  /** Sets the server's bot up (anew, if it had one): stopped until started. */
  async create(caller: Caller | null, serverId: string, request: CreateWhitelabelRequest): Promise<WhitelabelEntry> {
    await this.requireEnterprise(serverId);
    const identity = await this.identify(request.token);
    await this.refuseTakenApplication(serverId, identity.clientId);
    const at = now();
    const row = await this.guardTaken(() =>
      repo.putBot(this.db, {
        server_id: serverId,
        shard_key: repo.shardKeyOf(serverId),
        ...identityColumns(identity),
        token_sealed: seal(request.token, this.deps.encryptionKey),
        activity: request.activity ?? null,
        status: 'NotRunning',
        status_message: null,
        status_at: at,
        created_by: caller?.kind === 'user' ? caller.userId : null,
        created_at: at,
        updated_at: at,
      }),
    );
    await this.notify(row, 'created');
    return this.entry(row, false);
  }

  /**
   * A new token (checked with the platform first; refused, nothing changes) or activity. A bot
   * that runs or is starting starts again with the new token; a failed one waits to be started.
   */
  async update(serverId: string, request: UpdateWhitelabelRequest): Promise<WhitelabelEntry> {
    await this.requireEnterprise(serverId);
    const current = await this.bot(serverId);
    const changes: repo.BotChanges = {};
    if (request.activity !== undefined) changes.activity = request.activity;
    let restart = false;
    if (request.token !== undefined) {
      const identity = await this.identify(request.token);
      await this.refuseTakenApplication(serverId, identity.clientId);
      Object.assign(changes, identityColumns(identity), { token_sealed: seal(request.token, this.deps.encryptionKey) });
      const at = now();
      const status: WhitelabelStatus = current.status === 'Running' || current.status === 'Starting' ? 'Starting' : 'NotRunning';
      Object.assign(changes, { status, status_message: null, status_at: at });
      restart = true;
    }
    const row = await this.guardTaken(() => repo.updateBot(this.db, serverId, changes, { bumpRevision: restart, now: now() }));
    if (!row) throw this.noBot();
    await this.notify(row, 'updated');
    return this.entry(row, false);
  }

  /** Starting: the runner that holds the server's shard takes over and reports Running or Failed. */
  async start(serverId: string): Promise<WhitelabelEntry> {
    await this.requireEnterprise(serverId);
    const at = now();
    const row = await repo.updateBot(this.db, serverId, { status: 'Starting', status_message: null, status_at: at }, { bumpRevision: true, now: at });
    if (!row) throw this.noBot();
    await this.notify(row, 'started');
    return this.entry(row, false);
  }

  /** Stopped and forgotten: the token is dropped, and the server has no bot any more (404). */
  async delete(serverId: string): Promise<void> {
    const at = now();
    const row = await repo.updateBot(
      this.db,
      serverId,
      { status: 'NotRunning', status_message: null, status_at: at, token_sealed: null, deleted_at: at },
      { bumpRevision: true, now: at },
    );
    if (!row) throw this.noBot();
    await this.notify(row, 'deleted');
  }

  /**
   * Listens to plan changes (app.ts): the bot of a server whose plan no longer has white-label bots
   * stops, and says why; its token is kept, so that it can be started again once the server is back
   * on the plan. The runner is told at once, as for any other change. The plan is read as it is now.
   */
  async plansChanged(changes: PlanChange[]): Promise<void> {
    for (const { serverId } of changes) {
      const server = await repo.findServer(this.db, serverId);
      const plan = (server && server.plan in PLANS ? server.plan : 'free') as PlanType;
      if (PLANS[plan].features.whitelabel) continue;
      const bot = await repo.findBot(this.db, serverId);
      if (!bot || bot.status === 'NotRunning') continue;
      const at = now();
      // A new revision: a late report of the runner about the bot as it ran is refused.
      const stop: repo.BotChanges = { status: 'NotRunning', status_message: `Stopped: the server is no longer on the ${ENTERPRISE} plan`, status_at: at };
      const row = await repo.updateBot(this.db, serverId, stop, { bumpRevision: true, now: at });
      if (row) await this.notify(row, 'status');
    }
  }

  /**
   * What plansChanged does, for bots whose server left the plan while no one heard it: the change
   * is committed before it is told, so a process that dies in between leaves its bot meant to run.
   * Run now and then by every process; one at a time does it (a lease), so each bot stops once.
   */
  async stopOffPlan(): Promise<number> {
    const stopped = await withLease(this.db, OFF_PLAN_LEASE, 5 * 60_000, async () => {
      const serverIds = await repo.serversRunningOffPlan(this.db, WHITELABEL_PLANS);
      await this.plansChanged(serverIds.map((serverId) => ({ serverId, from: 'enterprise', to: 'free' })));
      return serverIds.length;
    });
    return stopped ?? 0;
  }

  // --- The runner's reports -----------------------------------------------------------------

  /**
   * What the runner says of the bot, as it is: running, starting, stopped, or failed and why. A
   * report about an older revision (the token changed or the bot was started again since) is
   * refused with 409, so a late one cannot overwrite what happened after it.
   */
  async reportStatus(serverId: string, report: WhitelabelStatusReport): Promise<void> {
    const current = await this.bot(serverId);
    if (report.revision !== undefined && report.revision !== current.revision) {
      throw new ConflictError(`The bot changed since revision ${report.revision}: it is at revision ${current.revision}`, 'revision');
    }
    const at = now();
    const changes: repo.BotChanges = { status: report.status, status_message: report.reason || null, status_at: at };
    const row = await repo.updateBot(this.db, serverId, changes, { bumpRevision: false, onlyRevision: current.revision, now: at });
    if (!row) throw new ConflictError(`The bot changed while the report was made: report on revision ${current.revision + 1} or later`, 'revision');
    await this.notify(row, 'status');
  }

  // --- Helpers ------------------------------------------------------------------------------

  private async bot(serverId: string): Promise<repo.WhitelabelRow> {
    const row = await repo.findBot(this.db, serverId);
    if (!row) throw this.noBot();
    return row;
  }

  private noBot(): NotFoundError {
    return new NotFoundError('This server has no white-label bot');
  }

  /** The white-label bot is an Enterprise feature (SPEC §6); 402 names the plan it takes. */
  private async requireEnterprise(serverId: string): Promise<void> {
    const server = await repo.findServer(this.db, serverId);
    if (!server || server.active !== 1) throw new NotFoundError('The bot is not in this server');
    const plan = (server.plan in PLANS ? server.plan : 'free') as PlanType;
    if (!PLANS[plan].features.whitelabel) {
      throw new LimitReachedError(`The white-label bot is part of the ${ENTERPRISE} plan; this server is on the ${planName(plan)} plan`);
    }
  }

  /** One application serves one server: its bot's events and commands would otherwise be handled twice. */
  private async refuseTakenApplication(serverId: string, clientId: string): Promise<void> {
    const owner = await repo.serverOfApplication(this.db, clientId);
    if (owner !== null && owner !== serverId) throw this.taken();
  }

  private taken(): ConflictError {
    return new ConflictError('This bot is already the white-label bot of another server', 'token');
  }

  /** The same check in the database, for two servers racing for one bot. */
  private async guardTaken<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw this.taken();
      throw error;
    }
  }

  private async notify(row: repo.WhitelabelRow, change: WhitelabelChangeNotice['change']): Promise<void> {
    await this.deps.notices.publish({ serverId: row.server_id, change, status: row.status as WhitelabelStatus, revision: row.revision, at: row.updated_at });
  }

  /** The one mapper from a row to the contract; the token only when an operator asked for it. */
  private entry(row: repo.WhitelabelRow, includeToken: boolean): WhitelabelEntry {
    const entry: WhitelabelEntry = {
      serverId: row.server_id,
      activity: row.activity,
      userId: row.user_id,
      name: row.name,
      avatarUrl: this.deps.avatarUrl(row.user_id, row.avatar),
      status: row.status as WhitelabelStatus,
      statusMessage: row.status_message,
      clientId: row.client_id,
      revision: row.revision,
    };
    if (includeToken && row.token_sealed) entry.token = unseal(row.token_sealed, this.deps.encryptionKey);
    return entry;
  }
}

function identityColumns(identity: BotIdentity) {
  return { user_id: identity.userId, client_id: identity.clientId, name: identity.name, avatar: identity.avatar, public_key: identity.publicKey };
}
