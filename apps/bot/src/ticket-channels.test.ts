import { describe, expect, it } from 'vitest';
import { snowflakeTime, TicketChannels, type TicketChannel } from './ticket-channels';

const EPOCH = 1_420_070_400_000n;
const idAt = (ms: number) => String((BigInt(ms) - EPOCH) << 22n);

describe('TicketChannels', () => {
  const T0 = 1_750_000_000_000;
  const setUp = (lists: TicketChannel[][]) => {
    let clock = T0;
    const loads: number[] = [];
    const tickets = new TicketChannels({
      now: () => clock,
      graceMs: 15_000,
      minIntervalMs: 0,
      load: async () => {
        loads.push(clock);
        return lists[Math.min(loads.length - 1, lists.length - 1)]!;
      },
    });
    return { tickets, loads, advance: (ms: number) => (clock += ms) };
  };
  const old = idAt(T0 - 3_600_000);
  const ticket = (channelId: string): TicketChannel => ({ channelId, ticketId: channelId, subjectId: 's1' });

  it('reads a snowflake’s creation time', () => {
    expect(snowflakeTime(idAt(T0))).toBe(T0);
    expect(snowflakeTime('not a number')).toBe(0);
  });

  it('cannot tell before the server’s list is loaded; then knows ticket channels and older channels', async () => {
    const { tickets } = setUp([[ticket('500')]]);
    expect(tickets.classify('1', '500')).toBe('unknown');
    await tickets.refresh('1');
    expect(tickets.classify('1', '500')).toBe('yes');
    expect(tickets.classify('1', old)).toBe('no');
  });

  it('does not trust a list loaded right after a channel was made: its ticket may be recorded just after', async () => {
    const fresh = idAt(T0 - 1000);
    const { tickets, loads, advance } = setUp([[], [ticket(fresh)]]);
    await tickets.refresh('1');
    expect(tickets.classify('1', fresh)).toBe('unknown');
    advance(2000);
    expect(await tickets.lookup('1', fresh)).toEqual(ticket(fresh));
    expect(loads).toHaveLength(2);
    // A channel without a ticket is settled once a list loaded well after its creation says so.
    expect(await tickets.lookup('1', old)).toBeNull();
    expect(loads).toHaveLength(2);
  });

  it('loads once for callers asking together, and again for a caller asking after a change', async () => {
    const { tickets, loads } = setUp([[ticket('500')]]);
    await Promise.all([tickets.lookup('1', '500'), tickets.lookup('1', '500'), tickets.refresh('1')]);
    expect(loads).toHaveLength(1);
    await tickets.refresh('1');
    expect(loads).toHaveLength(2);
  });

  it('spaces the loads of one server', async () => {
    const tickets = new TicketChannels({ minIntervalMs: 150, load: async () => [] });
    const started = Date.now();
    await tickets.refresh('1');
    await tickets.refresh('1');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('forgets a channel once deleted, and a server the bot left', async () => {
    const { tickets } = setUp([[ticket('500'), ticket('501')]]);
    await tickets.refresh('1');
    tickets.removeChannel('1', '500');
    expect(tickets.classify('1', '500')).toBe('no');
    tickets.forget('1');
    expect(tickets.classify('1', '501')).toBe('unknown');
  });
});

describe('TicketChannels loads', () => {
  it('keeps a bounded number of servers’ loads in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const tickets = new TicketChannels({
      maxConcurrentLoads: 2,
      load: async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 10));
        inFlight--;
        return [];
      },
    });
    await Promise.all(['1', '2', '3', '4', '5'].map((g) => tickets.refresh(g)));
    expect(most).toBe(2);
    expect(['1', '2', '3', '4', '5'].every((g) => tickets.isLoaded(g))).toBe(true);
  });
});
