import { createHash, createHmac, randomUUID } from 'node:crypto';
import { pipeline, Readable, Transform } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  PLANS,
  type CloneFileRequest,
  type PagedResult,
  type PlanType,
  type StorageExceededPolicy,
  type StorageOverview,
  type SubjectStorage,
  type TicketFile,
  type TicketStorage,
  type TimeSpan,
  type UploadedFile,
} from '@ticket/contracts';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import { withLease } from '../../db/leases';
import type { DB } from '../../db/schema';
import { AppError, BadRequestError, ForbiddenError, LimitReachedError, NotFoundError, UnauthorizedError, UpstreamError } from '../../http/errors';
import { ROLE_RANK, type AuthResolver, type Caller } from '../../http/route';
import { safeEqual } from '../../platform/crypto';
import { StoredObjectMissingError, type FileStorage } from '../../platform/file-storage';
import type { SettingsService } from '../settings';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from './errors';
import { contentDisposition, declaredType, describeImage, formatBytes, isAllowedType, isImageType, showsInline, sniffImage } from './file-content';
import * as repo from './repository';

/** Where an upload goes: the ticket, and the subject whose storage it counts against. */
export interface FileTarget {
  serverId: string;
  ticketId: string;
  subjectId: string;
  fileName: string;
}

/** The bytes of an upload, opened only once the caller and the ticket have been checked. */
export interface FileSource {
  stream: Readable;
  /** The content type the sender declared, if any. */
  contentType: string | null;
}

export interface FileDownload {
  stream: Readable;
  contentType: string;
  size: number;
  disposition: string;
}

const HEAD_BYTES = 16;
const PURGE_BATCH = 200;
export const RETENTION_LEASE = 'files.retention';
/** Long enough for a sweep's deletions in storage; a process that died holding it blocks the sweep no longer. */
const RETENTION_LEASE_MS = 30 * 60_000;
/** Temporary uploads older than this were left by a crash. */
const STALE_TEMPORARY_MS = 24 * 3600_000;
const UNIT_MS: Record<TimeSpan['unit'], number> = { seconds: 1000, minutes: 60_000, hours: 3600_000, days: 86_400_000 };

/**
 * Whom a download token was given to, and so what must still hold for it to open the file: that
 * user may still see the ticket; the API key's server is still the file's; an operator (the
 * bot); or, handed out where the caller is not known (the tickets service's answers, shared by
 * every caller), the ticket's people as they were: the author and members, by a keyed digest.
 */
type TokenHolder = { kind: 'user'; userId: string } | { kind: 'apiKey'; serverId: string } | { kind: 'admin' } | { kind: 'members'; digest: string };
/** Who is asking to reach a ticket: a caller, or the holder a token names. */
type Reacher = Exclude<TokenHolder, { kind: 'members' }>;

const HOLDER_PREFIX = { user: 'u', apiKey: 'k', admin: 'o', members: 'm' } as const;
const holderText = (holder: TokenHolder): string =>
  HOLDER_PREFIX[holder.kind] + (holder.kind === 'user' ? holder.userId : holder.kind === 'apiKey' ? holder.serverId : holder.kind === 'members' ? holder.digest : '');
/** `<expires, unix seconds>.<holder>.<HMAC-SHA256, base64url>`: URL-safe as it is, about 80 characters. */
const TOKEN_FORMAT = /^(\d{1,12})\.([ukom])([\w-]{0,64})\.([\w-]{43})$/;
/** Tokens handed out within this share of the lifetime are the same text, so a page asked for again (and its images) stays the same. */
const TOKEN_STEPS_PER_TTL = 12;

const planName = (plan: PlanType) => plan.charAt(0).toUpperCase() + plan.slice(1);
const finalKey = (serverId: string, fileId: string) => `servers/${serverId}/${fileId}`;
const cheapestPlanWithStorage = () => Object.values(PLANS).find((p) => p.storageBytes > 0)!;

/** Counts and hashes the bytes going through, keeps the first few, and stops past the limit. */
class Meter extends Transform {
  size = 0;
  head = Buffer.alloc(0);
  private readonly hash = createHash('sha256');

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      done(new PayloadTooLargeError(`The file is larger than the ${formatBytes(this.maxBytes)} upload limit`));
      return;
    }
    this.hash.update(chunk);
    if (this.head.length < HEAD_BYTES) this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD_BYTES - this.head.length)]);
    done(null, chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export class FilesService {
  private readonly tokenKey: Buffer;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly storage: FileStorage,
    private readonly settings: SettingsService,
    private readonly resolver: Pick<AuthResolver, 'roleOn'>,
    private readonly config: Pick<Config, 'files' | 'platform' | 'encryptionKey'>,
    private readonly clock: () => Date = () => new Date(),
  ) {
    // Download tokens are derived, not stored: nothing in the database opens a file on its own.
    this.tokenKey = createHmac('sha256', config.encryptionKey).update('file-download-token/v2').digest();
  }

  // --- Download tokens ----------------------------------------------------------------------

  private sign(fileId: string, body: string): string {
    return createHmac('sha256', this.tokenKey).update(`${fileId}\0${body}`).digest('base64url');
  }

  /** When tokens handed out now expire: at most the configured lifetime from now, the same for a while. */
  private tokenExpiry(): number {
    const ttl = this.config.files.tokenTtlSeconds;
    const step = Math.max(1, Math.floor(ttl / TOKEN_STEPS_PER_TTL));
    return Math.floor(this.clock().getTime() / 1000 / step) * step + ttl;
  }

  /** The file's download token: signed, expiring, and bound to whom it was given. */
  private tokenFor(fileId: string, holder: TokenHolder, expiresAt: number): string {
    const body = `${expiresAt}.${holderText(holder)}`;
    return `${body}.${this.sign(fileId, body)}`;
  }

  /** The token's holder, or why it opens nothing: not made by us for this file (or altered), or expired. */
  private readToken(fileId: string, token: string): TokenHolder | AppError {
    const match = TOKEN_FORMAT.exec(token);
    if (!match || !safeEqual(match[4]!, this.sign(fileId, `${match[1]}.${match[2]}${match[3]}`))) {
      return new UnauthorizedError('The download token is not valid for this file');
    }
    if (Number(match[1]) * 1000 <= this.clock().getTime()) {
      return new UnauthorizedError('The download token has expired: ask for the ticket’s files again for a new one');
    }
    const id = match[3]!;
    switch (match[2]) {
      case 'u':
        return { kind: 'user', userId: id };
      case 'k':
        return { kind: 'apiKey', serverId: id };
      case 'm':
        return { kind: 'members', digest: id };
      default:
        return { kind: 'admin' };
    }
  }

  /** Digests of each ticket's people (author and members): a token bound to them stops when they change. */
  private async peopleDigests(ticketIds: string[]): Promise<Map<string, string>> {
    const people = await repo.ticketPeople(this.db, [...new Set(ticketIds)]);
    const digest = ({ authorId, memberIds }: { authorId: string | null; memberIds: string[] }) =>
      createHmac('sha256', this.tokenKey)
        .update(`ticket-people\0${authorId ?? ''}\0${[...new Set(memberIds)].sort().join(',')}`)
        .digest()
        .subarray(0, 12)
        .toString('base64url');
    return new Map([...people].map(([ticketId, p]) => [ticketId, digest(p)]));
  }

  /** The files with tokens for `caller`, or, with no caller, for the people of their tickets. */
  private async withTokens(rows: repo.FileRow[], caller: Caller | null): Promise<TicketFile[]> {
    const expiresAt = this.tokenExpiry();
    const digests = caller ? null : await this.peopleDigests(rows.map((row) => row.ticket_id));
    return rows.map((row) =>
      this.toTicketFile(row, this.tokenFor(row.id, caller ?? { kind: 'members', digest: digests!.get(row.ticket_id)! }, expiresAt)),
    );
  }

  /** Whether what a valid token was given to still stands: checked on every download. */
  private async holderMayReach(holder: TokenHolder, serverId: string, ticket: repo.TicketRow): Promise<boolean> {
    if (holder.kind !== 'members') return this.mayReach(holder, serverId, ticket);
    return safeEqual(holder.digest, (await this.peopleDigests([ticket.id])).get(ticket.id)!);
  }

  private toTicketFile(row: repo.FileRow, token: string): TicketFile {
    return {
      ticketId: row.ticket_id,
      fileId: row.id,
      name: row.name,
      size: Number(row.size),
      token,
      blurHash: row.blur_hash,
      width: row.width,
      height: row.height,
    };
  }

  // --- Who may reach a ticket's files -------------------------------------------------------

  /** Staff of the server, its API key, or an operator: who may act on every ticket of the server. */
  private async isStaff(who: Reacher, serverId: string): Promise<boolean> {
    if (who.kind === 'admin') return true;
    if (who.kind === 'apiKey') return who.serverId === serverId;
    const role = await this.resolver.roleOn(who.userId, serverId);
    return role !== null && ROLE_RANK[role] >= ROLE_RANK.Staff;
  }

  /** Staff of the server (or its API key, or an operator) see every ticket; users see the tickets they are part of. */
  private async mayReach(who: Reacher, serverId: string, ticket: repo.TicketRow | undefined): Promise<boolean> {
    if (await this.isStaff(who, serverId)) return true;
    if (!ticket || who.kind !== 'user') return false;
    return ticket.author_id === who.userId || (await repo.isTicketMember(this.db, ticket.id, who.userId));
  }

  /** The ticket, once the caller may act on it: 404 for staff when it does not exist, 403 for everyone else. */
  private async reachableTicket(caller: Caller | null, serverId: string, ticketId: string, refusal: string): Promise<repo.TicketRow> {
    if (!caller) throw new UnauthorizedError();
    if (caller.kind === 'apiKey' && caller.serverId !== serverId) throw new ForbiddenError('This API key does not give access to this server');
    const ticket = await repo.findTicket(this.db, serverId, ticketId);
    if (!(await this.mayReach(caller, serverId, ticket))) throw new ForbiddenError(refusal);
    if (!ticket) throw new NotFoundError(`No ticket ${ticketId} in this server`);
    return ticket;
  }

  private async quotaOf(serverId: string, lock = false, db: Kysely<DB> = this.db): Promise<{ plan: PlanType; quota: number }> {
    const stored = await repo.serverPlan(db, serverId, lock);
    const plan = (stored in PLANS ? stored : 'free') as PlanType;
    const own = PLANS[plan].storageBytes;
    return { plan, quota: own > 0 && this.config.files.quotaOverrideBytes !== null ? this.config.files.quotaOverrideBytes : own };
  }

  private freePlanRefusal(plan: PlanType): LimitReachedError {
    const cheapest = cheapestPlanWithStorage();
    return new LimitReachedError(
      `The ${planName(plan)} plan includes no file storage; the ${planName(cheapest.type)} plan stores ${formatBytes(cheapest.storageBytes)}`,
    );
  }

  /**
   * Everything that can be refused before a byte is read: the caller, the ticket, its subject, the
   * plan. Only staff (the server's staff, its API key, operators such as the bot) may have older
   * files deleted to make room: a member's file never pushes out the server's files.
   */
  private async checkTarget(
    caller: Caller | null,
    target: FileTarget,
  ): Promise<{ uploader: Caller; policy: StorageExceededPolicy; mayMakeRoom: boolean }> {
    if (!caller) throw new UnauthorizedError();
    const ticket = await this.reachableTicket(caller, target.serverId, target.ticketId, 'You may only add files to tickets you are part of');
    if (ticket.subject_id !== target.subjectId) throw new NotFoundError(`Ticket ${target.ticketId} is not in subject ${target.subjectId}`);
    const subject = await this.settings.getSubject(target.serverId, target.subjectId);
    const { plan, quota } = await this.quotaOf(target.serverId);
    if (quota === 0) throw this.freePlanRefusal(plan);
    return { uploader: caller, policy: subject.files.storageExceeded, mayMakeRoom: await this.isStaff(caller, target.serverId) };
  }

  // --- Storing ------------------------------------------------------------------------------

  /** POST /files/upload: the source is opened only after every check that needs no bytes has passed. */
  async upload(caller: Caller | null, target: FileTarget, open: () => Promise<FileSource>): Promise<UploadedFile> {
    const { uploader, policy, mayMakeRoom } = await this.checkTarget(caller, target);
    return this.store(uploader, target, await open(), { policy, mayMakeRoom }, null);
  }

  /** POST /files/clone: fetches a platform attachment from the platform's CDN, then stores it like an upload. */
  async clone(caller: Caller | null, request: CloneFileRequest): Promise<UploadedFile> {
    const cdn = new URL(this.config.platform.cdnUrl);
    const url = new URL(request.url);
    const cdnPath = cdn.pathname.endsWith('/') ? cdn.pathname : `${cdn.pathname}/`;
    // Only the platform's CDN: the server must not be made to fetch arbitrary addresses (SSRF).
    if (url.protocol !== cdn.protocol || url.host !== cdn.host || !url.pathname.startsWith(cdnPath) || url.username || url.password) {
      throw new BadRequestError(`Files can only be cloned from the platform's CDN (${cdn.origin}${cdnPath})`, 'body.url');
    }
    const target = { serverId: request.serverId, ticketId: request.ticketId, subjectId: request.subjectId, fileName: request.fileName };
    const { uploader, policy, mayMakeRoom } = await this.checkTarget(caller, target);
    const attachmentId = /^attachments\/\d+\/(\d+)\//.exec(url.pathname.slice(cdnPath.length))?.[1] ?? null;

    const max = this.config.files.maxUploadBytes;
    const signal = AbortSignal.timeout(this.config.files.cloneTimeoutMs);
    let response: Response;
    try {
      response = await fetch(url, { redirect: 'manual', signal });
    } catch {
      throw new UpstreamError(signal.aborted ? 'The platform CDN did not answer in time' : 'The platform CDN could not be reached');
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new UpstreamError(
        response.status === 404 ? 'The platform CDN no longer has this attachment (404)' : `The platform CDN answered ${response.status} for this attachment`,
      );
    }
    const declaredLength = Number(response.headers.get('content-length') ?? Number.NaN);
    if (declaredLength > max) {
      await response.body.cancel();
      throw new PayloadTooLargeError(`The file is larger than the ${formatBytes(max)} upload limit`);
    }
    let downloadFailed = false;
    const stream = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    stream.once('error', () => {
      downloadFailed = true;
    });
    try {
      return await this.store(uploader, target, { stream, contentType: response.headers.get('content-type') }, { policy, mayMakeRoom }, attachmentId);
    } catch (error) {
      if (downloadFailed && !(error instanceof AppError)) {
        throw new UpstreamError(signal.aborted ? 'The platform CDN did not send the file in time' : 'The download from the platform CDN broke off');
      }
      throw error;
    }
  }

  /**
   * Writes the bytes under a temporary key, checks them, then in one transaction applies the
   * storage policy, inserts the row and gives the bytes their final key. Whatever fails, nothing
   * half-written stays: no row without bytes, no bytes without a row.
   */
  private async store(
    caller: Caller,
    target: FileTarget,
    source: FileSource,
    { policy, mayMakeRoom }: { policy: StorageExceededPolicy; mayMakeRoom: boolean },
    attachmentId: string | null,
  ): Promise<UploadedFile> {
    const fileId = randomUUID();
    const temporary = `tmp/${fileId}`;
    const kept = finalKey(target.serverId, fileId);
    let committed: repo.FileRow | null = null;
    let deleted: string[] = [];
    let exceeded = false;
    try {
      const meter = new Meter(this.config.files.maxUploadBytes);
      // Errors travel both ways: a broken source fails the write, a refused write stops the source.
      await this.storage.write(temporary, pipeline(source.stream, meter, () => undefined));
      if (meter.size === 0) throw new BadRequestError('The file is empty', 'file');

      const declared = declaredType(source.contentType, target.fileName);
      const sniffed = sniffImage(meter.head);
      if (!sniffed && isImageType(declared)) throw new UnsupportedMediaTypeError(`The file is declared as ${declared} but is not a readable image`);
      const contentType = sniffed ?? declared;
      if (!isAllowedType(contentType, this.config.files.allowedTypes)) {
        throw new UnsupportedMediaTypeError(`Files of type ${contentType} cannot be stored; allowed: ${this.config.files.allowedTypes.join(', ')}`);
      }
      const image = sniffed ? await describeImage(await collect(await this.storage.read(temporary))) : null;
      const size = meter.size;
      const sha256 = meter.digest();

      committed = await this.db.transaction().execute(async (trx) => {
        const { plan, quota } = await this.quotaOf(target.serverId, true, trx);
        if (quota === 0) throw this.freePlanRefusal(plan);
        const used = await repo.spaceUsed(trx, target.serverId);
        if (used + size > quota) {
          const full = `The ${planName(plan)} plan stores ${formatBytes(quota)} of files; this server uses ${formatBytes(used)} and the file needs ${formatBytes(size)}`;
          if (policy === 'Reject') throw new LimitReachedError(`${full}. Delete files or upgrade to store more.`);
          if (policy === 'Inform') exceeded = true;
          else if (!mayMakeRoom) throw new LimitReachedError(`${full}. The server’s file storage is full; ask its staff to make room.`);
          else {
            const subjectOnly = policy === 'DeleteOldestFileSameSubject' ? target.subjectId : null;
            const room = await this.makeRoom(trx, target.serverId, subjectOnly, used + size - quota);
            if (room === null) {
              throw new LimitReachedError(`${full}, and deleting the oldest files of ${subjectOnly ? 'the subject' : 'the server'} would not free enough.`);
            }
            deleted = room;
          }
        }
        const row: repo.FileRow = {
          id: fileId,
          server_id: target.serverId,
          ticket_id: target.ticketId,
          subject_id: target.subjectId,
          name: target.fileName,
          content_type: contentType,
          size,
          sha256,
          storage_key: kept,
          width: image?.width ?? null,
          height: image?.height ?? null,
          blur_hash: image?.blurHash ?? null,
          attachment_id: attachmentId,
          uploader_kind: caller.kind,
          uploader_id: caller.kind === 'user' ? caller.userId : caller.kind === 'apiKey' ? caller.serverId : null,
          created_at: this.clock().toISOString(),
          deleted_at: null,
        };
        await repo.insertFile(trx, row);
        // Last step before the commit, so a failed move rolls the row back.
        await this.storage.move(temporary, kept);
        return row;
      });
    } finally {
      if (!committed) {
        await Promise.allSettled([this.storage.remove(temporary), this.storage.remove(kept)]);
      }
    }
    // The policy's deletions are committed with the new row; their bytes go now (or at the next sweep).
    await this.purge(deleted).catch(() => undefined);
    const [file] = await this.withTokens([committed], caller);
    return { ...file!, storageExceeded: exceeded, deletedFileIds: deleted };
  }

  /** Marks the oldest files deleted until `needed` bytes are free; null when even all of them are not enough. */
  private async makeRoom(trx: Kysely<DB>, serverId: string, subjectId: string | null, needed: number): Promise<string[] | null> {
    const chosen: string[] = [];
    let freed = 0;
    const at = this.clock().toISOString();
    while (freed < needed) {
      const batch = await repo.oldestFiles(trx, serverId, subjectId, PURGE_BATCH);
      if (batch.length === 0) return null;
      const take: string[] = [];
      for (const file of batch) {
        if (freed >= needed) break;
        take.push(file.id);
        freed += Number(file.size);
      }
      await repo.markDeleted(trx, take, at);
      chosen.push(...take);
    }
    return chosen;
  }

  // --- Deleting -----------------------------------------------------------------------------

  /** Removes the bytes of files marked deleted, then their rows; a failure leaves the row for the next sweep. */
  private async purge(fileIds: string[] | null): Promise<number> {
    let purged = 0;
    for (;;) {
      const batch = await repo.pendingDeletions(this.db, fileIds, PURGE_BATCH);
      if (batch.length === 0) return purged;
      const removed: string[] = [];
      for (const file of batch) {
        try {
          await this.storage.remove(file.storage_key);
          removed.push(file.id);
        } catch {
          // Kept marked; the next sweep tries again.
        }
      }
      await repo.removeRows(this.db, removed);
      purged += removed.length;
      if (removed.length < batch.length || fileIds !== null) return purged;
    }
  }

  /**
   * Deletes every file of a ticket, for the tickets service when it deletes the ticket: pass its
   * transaction so the files go with the ticket or not at all, then call `purgeDeleted` after the
   * commit. (Files of a ticket deleted without this go at the next sweep.)
   */
  async deleteTicketFiles(serverId: string, ticketId: string, trx: Kysely<DB> = this.db): Promise<void> {
    await repo.markTicketDeleted(trx, serverId, ticketId, this.clock().toISOString());
    if (trx === this.db) await this.purgeDeleted();
  }

  /** Removes the bytes and rows of deleted files now rather than at the next sweep; failures wait for the sweep. */
  async purgeDeleted(): Promise<void> {
    await this.purge(null).catch(() => undefined);
  }

  /**
   * Deletes files older than their subject's retention time and files of deleted tickets, and
   * finishes deletions a failure or a restart interrupted. Everything is computed from stored timestamps, so a missed run loses nothing.
   * One process sweeps at a time; the others find the lease taken and answer nothing done.
   */
  async sweepRetention(now: Date = this.clock()): Promise<{ expired: number; purged: number }> {
    return (await withLease(this.db, RETENTION_LEASE, RETENTION_LEASE_MS, () => this.sweep(now))) ?? { expired: 0, purged: 0 };
  }

  private async sweep(now: Date): Promise<{ expired: number; purged: number }> {
    const pairs = await repo.subjectsWithFiles(this.db);
    const subjects = new Map((await this.settings.subjectsBulk([...new Set(pairs.map((p) => p.subject_id))])).map((s) => [s.subjectId, s]));
    const at = now.toISOString();
    let expired = 0;
    for (const { server_id: serverId, subject_id: subjectId } of pairs) {
      const subject = subjects.get(subjectId);
      const retention = subject?.serverId === serverId ? subject.files.retentionTime : null;
      if (!retention) continue;
      const cutoff = new Date(now.getTime() - retention.time * UNIT_MS[retention.unit]).toISOString();
      expired += await repo.markExpired(this.db, serverId, subjectId, cutoff, at);
    }
    expired += await repo.markOrphaned(this.db, at);
    const purged = await this.purge(null);
    await this.storage.removeStale('tmp', new Date(now.getTime() - STALE_TEMPORARY_MS)).catch(() => 0);
    return { expired, purged };
  }

  // --- Reading ------------------------------------------------------------------------------

  /**
   * GET /files/:fileId/:fileName: as someone who may see its ticket, or with a download token of
   * the file that has not expired and whose holder may still see the ticket. A token that is not
   * ours for this file, or has expired, is refused (401: without an Authorization header, before
   * anything is looked up); one whose holder lost the ticket is refused (403). Everyone else
   * learns nothing, not even that the file exists (404).
   */
  async download(caller: Caller | null, fileId: string, fileName: string, token: string | undefined): Promise<FileDownload> {
    const missing = new NotFoundError(`No file ${fileId} named ${fileName}`);
    if (token === undefined && !caller) throw new UnauthorizedError('Send the file’s token or an Authorization header');
    const holder = token === undefined ? null : this.readToken(fileId, token);
    if (holder instanceof AppError && !caller) throw holder;
    const row = await repo.findFile(this.db, fileId);
    // A deleted ticket takes its files with it, even before the sweep removes their bytes.
    const ticket = row && row.name === fileName ? await repo.findTicket(this.db, row.server_id, row.ticket_id) : undefined;
    if (!(row && ticket && caller && (await this.mayReach(caller, row.server_id, ticket)))) {
      if (holder instanceof AppError) throw holder;
      if (!row || !ticket || !holder) throw missing;
      if (!(await this.holderMayReach(holder, row.server_id, ticket))) {
        throw new ForbiddenError(
          holder.kind === 'members'
            ? 'The download token no longer opens this file: the ticket’s members have changed since it was issued'
            : 'The download token no longer opens this file: it was issued to someone who may no longer see the ticket',
        );
      }
    }
    let stream: Readable;
    try {
      stream = await this.storage.read(row.storage_key);
    } catch (error) {
      if (error instanceof StoredObjectMissingError) throw missing;
      throw error;
    }
    return {
      stream,
      contentType: row.content_type,
      size: Number(row.size),
      disposition: contentDisposition(showsInline(row.content_type) ? 'inline' : 'attachment', row.name),
    };
  }

  /** GET /files/servers/:serverId/tickets/:ticketId */
  async ticketFiles(caller: Caller | null, serverId: string, ticketId: string): Promise<TicketFile[]> {
    await this.reachableTicket(caller, serverId, ticketId, "You don't have permission to view this ticket.");
    return this.withTokens(await repo.listTicketFiles(this.db, serverId, ticketId), caller);
  }

  /**
   * Files of a ticket with their tokens (for the tickets service, which has checked access already):
   * bound to `caller` when given, else to the ticket's people as they are now.
   */
  async filesOfTicket(serverId: string, ticketId: string, caller: Caller | null = null): Promise<TicketFile[]> {
    return this.withTokens(await repo.listTicketFiles(this.db, serverId, ticketId), caller);
  }

  /**
   * The stored copies of platform attachments, by attachment id (for the tickets service's
   * messages). Its answers are shared by every caller (a cached staff view): without `caller`, the
   * tokens are bound to each ticket's people as they are now, so removing someone from the ticket
   * ends them (a fresh answer carries new ones).
   */
  async filesForAttachments(serverId: string, attachmentIds: string[], caller: Caller | null = null): Promise<Map<string, TicketFile>> {
    const rows = await repo.findByAttachments(this.db, serverId, attachmentIds);
    const files = await this.withTokens(rows, caller);
    return new Map(rows.map((row, i) => [row.attachment_id!, files[i]!]));
  }

  /** GET /servers/:serverId/stats: every live subject (deleted ones too while they hold files), and the total. */
  async storageOverview(serverId: string): Promise<StorageOverview> {
    const [live, used, total] = await Promise.all([
      this.settings.listSubjects(serverId),
      repo.spaceUsedBySubject(this.db, serverId),
      repo.spaceUsed(this.db, serverId),
    ]);
    const subjects: SubjectStorage[] = live.map((s) => ({ subjectId: s.subjectId, serverId, name: s.name, spaceUsed: used.get(s.subjectId) ?? 0 }));
    const listed = new Set(subjects.map((s) => s.subjectId));
    const others = [...used.keys()].filter((id) => !listed.has(id));
    for (const s of await this.settings.subjectsBulk(others)) {
      if (s.serverId === serverId) subjects.push({ subjectId: s.subjectId, serverId, name: s.name, spaceUsed: used.get(s.subjectId) ?? 0 });
    }
    return { subjects, spaceUsed: total };
  }

  /** GET /servers/:serverId/stats/tickets: space per ticket, largest first. */
  async ticketStorage(serverId: string, page: number, amount: number): Promise<PagedResult<TicketStorage>> {
    const { rows, total } = await repo.pageSpaceByTicket(this.db, serverId, (page - 1) * amount, amount);
    return {
      page,
      maxPage: Math.max(1, Math.ceil(total / amount)),
      elements: rows.map((r) => ({ ticketId: r.ticketId, spaceUsed: r.used })),
    };
  }
}
