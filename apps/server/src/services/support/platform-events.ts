import type { PlatformEvent } from '@ticket/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import * as deskRepo from './desk-repository';
import type { TicketJobs } from './ticket-jobs';

/** What a server's own state needs to hear from the gateway (the server-data and access services). */
export interface ServerEvents {
  botAdded(serverId: string): Promise<void>;
  botRemoved(serverId: string): Promise<void>;
  rolesChanged(serverId: string): Promise<void>;
  channelsChanged(serverId: string): Promise<void>;
  memberChanged(serverId: string, userId: string): Promise<void>;
}

/** How long an event's id is kept: far longer than the bot runtime keeps a report it could not deliver. */
const KEEP_EVENTS_MS = 14 * 24 * 3600_000;

/**
 * Events the bot runtime saw on the platform's gateway. It reports each at least once; an event
 * already handled (its id recorded) is done, and each handling is itself safe to repeat, so two
 * copies arriving at once change nothing twice.
 */
export class PlatformEvents {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly jobs: TicketJobs,
    private readonly server: ServerEvents,
  ) {}

  async report(serverId: string, event: PlatformEvent): Promise<void> {
    if (await deskRepo.isEventRecorded(this.db, event.eventId)) return;
    switch (event.type) {
      case 'memberLeft':
        await this.server.memberChanged(serverId, event.userId);
        await this.jobs.memberLeft(serverId, event.userId);
        break;
      case 'channelDeleted':
        await this.jobs.channelDeleted(serverId, event.channelId, event.deletedBy);
        await this.server.channelsChanged(serverId);
        break;
      case 'botAdded':
        await this.server.botAdded(serverId);
        break;
      case 'botRemoved':
        await this.server.botRemoved(serverId);
        break;
      case 'rolesChanged':
        await this.server.rolesChanged(serverId);
        break;
      case 'memberUpdated':
        await this.server.memberChanged(serverId, event.userId);
        break;
      case 'channelsChanged':
        await this.server.channelsChanged(serverId);
        break;
    }
    await deskRepo.recordEvent(this.db, { eventId: event.eventId, serverId, type: event.type });
  }

  /** Forgets events older than any report still waiting in a runtime's queue could be. */
  async prune(at: Date = new Date()): Promise<number> {
    return deskRepo.pruneEvents(this.db, new Date(at.getTime() - KEEP_EVENTS_MS));
  }
}
