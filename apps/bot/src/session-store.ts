import type { SessionInfo } from '@discordjs/ws';
import type { Db } from './store';

interface SessionRow {
  shard_id: number;
  session_id: string;
  sequence: number;
  resume_url: string;
  shard_count: number;
}

/**
 * Each shard's gateway session (id, resume URL, sequence), kept across restarts so that a runtime
 * started again within the resume window resumes and is sent what it missed.
 *
 * The sequence @discordjs/ws reports before emitting a dispatch is held in memory only; the
 * stored one is what the runtime has handled (see `markHandled`), so a crash between the two
 * replays that dispatch instead of losing it.
 */
export class SessionStore {
  private readonly sessions = new Map<number, SessionInfo>();
  private readonly pending = new Map<number, { sessionId: string; sequence: number }>();
  private frozen = false;
  private readonly upsert;
  private readonly remove;
  private readonly advance;

  constructor(db: Db) {
    for (const row of db.prepare<[], SessionRow>('SELECT * FROM sessions').all()) {
      this.sessions.set(row.shard_id, {
        shardId: row.shard_id,
        sessionId: row.session_id,
        sequence: row.sequence,
        resumeURL: row.resume_url,
        shardCount: row.shard_count,
      });
    }
    this.upsert = db.prepare(
      `INSERT INTO sessions (shard_id, session_id, sequence, resume_url, shard_count, updated_at)
       VALUES (@shardId, @sessionId, @sequence, @resumeURL, @shardCount, @now)
       ON CONFLICT (shard_id) DO UPDATE SET session_id = excluded.session_id, sequence = excluded.sequence,
         resume_url = excluded.resume_url, shard_count = excluded.shard_count, updated_at = excluded.updated_at`,
    );
    this.remove = db.prepare('DELETE FROM sessions WHERE shard_id = ?');
    this.advance = db.prepare('UPDATE sessions SET sequence = ?, updated_at = ? WHERE shard_id = ? AND session_id = ? AND sequence < ?');
  }

  retrieve(shardId: number): SessionInfo | null {
    return this.sessions.get(shardId) ?? null;
  }

  update(shardId: number, info: SessionInfo | null): void {
    // Shutting down: the manager forgets its sessions, but a restart should resume them.
    if (this.frozen) return;
    const previous = this.sessions.get(shardId);
    if (info === null) {
      this.sessions.delete(shardId);
      this.pending.delete(shardId);
      this.remove.run(shardId);
      return;
    }
    this.sessions.set(shardId, { ...info });
    const sameSession = previous && previous.sessionId === info.sessionId && previous.resumeURL === info.resumeURL && previous.shardCount === info.shardCount;
    if (!sameSession) this.upsert.run({ ...info, now: Date.now() });
  }

  /**
   * The dispatch with this sequence has been handled. With `persist` (its reports were queued, in
   * the same transaction) it is stored at once; otherwise at the next `flush`: a stored sequence
   * that lags only means a few dispatches without reports are replayed.
   */
  markHandled(shardId: number, sequence: number, persist: boolean): void {
    const session = this.sessions.get(shardId);
    if (!session) return;
    if (persist) {
      this.advance.run(sequence, Date.now(), shardId, session.sessionId, sequence);
      this.pending.delete(shardId);
    } else {
      this.pending.set(shardId, { sessionId: session.sessionId, sequence });
    }
  }

  /** Stores the sequences handled since the last flush. */
  flush(): void {
    for (const [shardId, { sessionId, sequence }] of this.pending) this.advance.run(sequence, Date.now(), shardId, sessionId, sequence);
    this.pending.clear();
  }

  /** From now on the stored sessions stay as they are, for the next start to resume. */
  freeze(): void {
    this.frozen = true;
  }

  shards(): SessionInfo[] {
    return [...this.sessions.values()];
  }
}
