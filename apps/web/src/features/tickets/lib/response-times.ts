import type { Ticket } from '@ticket/contracts';

export interface ResponseTimes {
  /** Seconds from the ticket's opening to the first staff answer; null while nobody answered. */
  first: number | null;
  /** Mean seconds a member waited for a staff answer, over every wait that was answered. */
  average: number | null;
}

/**
 * How long members waited, from the messages: a wait starts when the ticket opens or when a member
 * writes while no wait is running, and ends with the next staff message. System messages neither
 * start nor end one.
 */
export function responseTimes(ticket: Pick<Ticket, 'createdAt' | 'messages'>): ResponseTimes {
  const waits: number[] = [];
  let waitingSince: number | null = Date.parse(ticket.createdAt);
  for (const message of ticket.messages) {
    const at = Date.parse(message.createdAt);
    if (Number.isNaN(at)) continue;
    if (message.messageType === 'Staff') {
      if (waitingSince !== null) waits.push(Math.max(0, at - waitingSince) / 1000);
      waitingSince = null;
    } else if (message.messageType === 'User' && waitingSince === null) {
      waitingSince = at;
    }
  }
  return {
    first: waits[0] ?? null,
    average: waits.length > 0 ? waits.reduce((sum, wait) => sum + wait, 0) / waits.length : null,
  };
}
