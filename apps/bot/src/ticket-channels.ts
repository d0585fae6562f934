import type { TicketChannelAnswer } from './map-dispatch';

export interface TicketChannel {
  channelId: string;
  ticketId: string;
  subjectId: string;
}

const DISCORD_EPOCH = 1_420_070_400_000n;

/** When the platform made the thing with this id (a snowflake holds its creation time). */
export function snowflakeTime(id: string): number {
  try {
    return Number((BigInt(id) >> 22n) + DISCORD_EPOCH);
  } catch {
    return 0;
  }
}

interface GuildEntry {
  channels: Map<string, TicketChannel> | null;
  /** When the request behind `channels` was sent: tickets recorded before then are in it. */
  loadedAt: number;
  loading: Promise<void> | null;
  loadingSince: number;
  lastStart: number;
}

export interface TicketChannelsOptions {
  load(guildId: string): Promise<TicketChannel[]>;
  now?: () => number;
  /**
   * A ticket is recorded just after its channel is made, so a list loaded within this long of a
   * channel's creation may not have it yet.
   */
  graceMs?: number;
  /** Least time between two loads of one server's list. */
  minIntervalMs?: number;
  /** Loads in flight at once across servers (a shard's READY names thousands of servers). */
  maxConcurrentLoads?: number;
}

/**
 * The channels of each server's open tickets, the only channels whose messages are reported.
 * Loaded when a server becomes available, refreshed when a channel is created and when the API
 * no longer knows a ticket.
 */
export class TicketChannels {
  private readonly guilds = new Map<string, GuildEntry>();
  private readonly now: () => number;
  private readonly graceMs: number;
  private readonly minIntervalMs: number;
  private readonly maxConcurrentLoads: number;
  private loadsInFlight = 0;
  private readonly waitingLoads: (() => void)[] = [];

  constructor(private readonly options: TicketChannelsOptions) {
    this.now = options.now ?? Date.now;
    this.graceMs = options.graceMs ?? 15_000;
    this.minIntervalMs = options.minIntervalMs ?? 1_000;
    this.maxConcurrentLoads = options.maxConcurrentLoads ?? 8;
  }

  private async limited<T>(fn: () => Promise<T>): Promise<T> {
    if (this.loadsInFlight >= this.maxConcurrentLoads) await new Promise<void>((resolve) => this.waitingLoads.push(resolve));
    this.loadsInFlight++;
    try {
      return await fn();
    } finally {
      this.loadsInFlight--;
      this.waitingLoads.shift()?.();
    }
  }

  private entry(guildId: string): GuildEntry {
    let entry = this.guilds.get(guildId);
    if (!entry) {
      entry = { channels: null, loadedAt: 0, loading: null, loadingSince: 0, lastStart: -Infinity };
      this.guilds.set(guildId, entry);
    }
    return entry;
  }

  isLoaded(guildId: string): boolean {
    return this.guilds.get(guildId)?.channels != null;
  }

  /** What is known now, without asking the API. */
  classify(guildId: string, channelId: string): TicketChannelAnswer {
    const entry = this.guilds.get(guildId);
    if (!entry?.channels) return 'unknown';
    if (entry.channels.has(channelId)) return 'yes';
    return this.mayBeMissing(entry, channelId) ? 'unknown' : 'no';
  }

  private mayBeMissing(entry: GuildEntry, channelId: string): boolean {
    return entry.loadedAt < snowflakeTime(channelId) + this.graceMs;
  }

  /** The ticket in the channel, loading or refreshing the server's list when it may be out of date. */
  async lookup(guildId: string, channelId: string): Promise<TicketChannel | null> {
    const entry = this.entry(guildId);
    if (!entry.channels) await this.refresh(guildId);
    const found = entry.channels!.get(channelId);
    if (found) return found;
    if (!this.mayBeMissing(entry, channelId)) return null;
    await this.refresh(guildId);
    return entry.channels!.get(channelId) ?? null;
  }

  /**
   * Loads the server's list again; resolves once a load that started now or later is done (one
   * in flight that started earlier may miss what just changed). Loads are spaced by minIntervalMs.
   */
  async refresh(guildId: string): Promise<void> {
    const entry = this.entry(guildId);
    const wanted = this.now();
    for (;;) {
      if (entry.loading) {
        const since = entry.loadingSince;
        const loading = entry.loading;
        if (since >= wanted) return loading;
        await loading.catch(() => undefined);
        continue;
      }
      const wait = entry.lastStart + this.minIntervalMs - this.now();
      const start = async () => {
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const { list, startedAt } = await this.limited(async () => {
          const at = this.now();
          entry.loadingSince = at;
          entry.lastStart = at;
          return { list: await this.options.load(guildId), startedAt: at };
        });
        // Forgotten meanwhile (the bot left): keep it forgotten.
        if (this.guilds.get(guildId) !== entry) return;
        entry.channels = new Map(list.map((c) => [c.channelId, c]));
        entry.loadedAt = startedAt;
      };
      // Counted from now: a load that waits its turn still starts after `wanted`.
      entry.loadingSince = Math.max(wanted, this.now() + Math.max(0, wait));
      const loading = start().finally(() => {
        if (entry.loading === loading) entry.loading = null;
      });
      entry.loading = loading;
      return loading;
    }
  }

  /** The channel holds no ticket any more (deleted, reported). */
  removeChannel(guildId: string, channelId: string): void {
    this.guilds.get(guildId)?.channels?.delete(channelId);
  }

  /** The bot left the server. */
  forget(guildId: string): void {
    this.guilds.delete(guildId);
  }
}
