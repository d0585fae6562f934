import type { SettingsUpdate, UpdateResult } from '@ticket/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FetchError, ResponseError } from '@/lib/api';
import { notifyError } from '@/lib/notify';
import { createUpdateQueue, SETTINGS_UPDATE_DEBOUNCE_MS, type UpdateQueueOptions } from './update-queue';

vi.mock('@/lib/notify', () => ({ notifyError: vi.fn() }));

const SERVER = '200000000000000001';

interface Deferred {
  updates: SettingsUpdate[];
  resolve: (results: UpdateResult[]) => void;
  reject: (error: unknown) => void;
}

/** A send that answers when the test says so; every request is kept. */
function deferredSend() {
  const requests: Deferred[] = [];
  const send = vi.fn(
    (updates: SettingsUpdate[]) =>
      new Promise<UpdateResult[]>((resolve, reject) => {
        requests.push({ updates, resolve, reject });
      }),
  );
  /** Answers request `i` with each update's value echoed back. */
  const answer = async (i = requests.length - 1) => {
    const request = requests[i];
    if (!request) throw new Error(`no request ${i}`);
    request.resolve(request.updates.map((u) => ({ path: u.path, value: u.value, inherits: false })));
    await vi.advanceTimersByTimeAsync(0);
  };
  return { send, requests, answer };
}

/** A send that answers at once, echoing each update's value. */
const echo = () =>
  vi.fn(async (updates: SettingsUpdate[]) => updates.map((u) => ({ path: u.path, value: u.value, inherits: false })));

const queueWith = (send: UpdateQueueOptions['send'], options: Partial<UpdateQueueOptions> = {}) =>
  createUpdateQueue({ serverId: SERVER, send, ...options });

const sent = (send: { mock: { calls: [SettingsUpdate[]][] } }) =>
  send.mock.calls.map(([updates]) =>
    updates.map(({ subjectId, path, operation, value }) => ({ subjectId, path, operation, value })),
  );

beforeEach(() => {
  vi.useFakeTimers();
  vi.mocked(notifyError).mockClear();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the settings update queue (SPEC §4)', () => {
  it('waits 1000 ms after a change before sending it', async () => {
    const send = echo();
    const queue = queueWith(send);
    void queue.enqueue({ subjectId: 's1', path: 'logging.created', operation: 'set', value: false });
    expect(SETTINGS_UPDATE_DEBOUNCE_MS).toBe(1000);
    await vi.advanceTimersByTimeAsync(999);
    expect(send).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(sent(send)).toEqual([[{ subjectId: 's1', path: 'logging.created', operation: 'set', value: false }]]);
  });

  it('debounces per path: a second change of the same setting restarts its wait and replaces the first', async () => {
    const send = echo();
    const queue = queueWith(send);
    const first = queue.enqueue({ subjectId: 's1', path: 'name', operation: 'set', value: 'Bil' });
    await vi.advanceTimersByTimeAsync(600);
    const second = queue.enqueue({ subjectId: 's1', path: 'name', operation: 'set', value: 'Billing' });
    await vi.advanceTimersByTimeAsync(999);
    expect(send).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(sent(send)).toEqual([[{ subjectId: 's1', path: 'name', operation: 'set', value: 'Billing' }]]);
    // The replaced change settles with the change that replaced it.
    await expect(first).resolves.toEqual({ path: 'name', value: 'Billing', inherits: false });
    await expect(second).resolves.toEqual({ path: 'name', value: 'Billing', inherits: false });
  });

  it('debounces per subject: the same path of two subjects are two changes', async () => {
    const send = echo();
    const queue = queueWith(send);
    void queue.enqueue({ subjectId: 's1', path: 'active', operation: 'set', value: false });
    void queue.enqueue({ subjectId: 's2', path: 'active', operation: 'set', value: false });
    expect(queue.pending()).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent(send)).toEqual([
      [
        { subjectId: 's1', path: 'active', operation: 'set', value: false },
        { subjectId: 's2', path: 'active', operation: 'set', value: false },
      ],
    ]);
  });

  it('a set replaces every queued change of its path, add and remove included', async () => {
    const send = echo();
    const queue = queueWith(send);
    const added = queue.enqueue({ subjectId: 's1', path: 'staffRoles.value', operation: 'add', value: '1' });
    void queue.enqueue({ subjectId: 's1', path: 'staffRoles.value', operation: 'add', value: '2' });
    void queue.enqueue({ subjectId: 's1', path: 'staffRoles.value', operation: 'remove', value: '3' });
    void queue.enqueue({ subjectId: 's1', path: 'staffRoles.value', operation: 'set', value: ['9'] });
    expect(queue.pending()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent(send)).toEqual([[{ subjectId: 's1', path: 'staffRoles.value', operation: 'set', value: ['9'] }]]);
    await expect(added).resolves.toMatchObject({ value: ['9'] });
  });

  it('an add/remove replaces a queued add/remove of the same value on the same path', async () => {
    const send = echo();
    const queue = queueWith(send);
    void queue.enqueue({ subjectId: 's1', path: 'limitations.whitelist.ids', operation: 'add', value: '7' });
    void queue.enqueue({ subjectId: 's1', path: 'limitations.whitelist.ids', operation: 'remove', value: '7' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent(send)).toEqual([[{ subjectId: 's1', path: 'limitations.whitelist.ids', operation: 'remove', value: '7' }]]);
  });

  it('an add/remove of another value, or of the same value on another path, is appended', async () => {
    const send = echo();
    const queue = queueWith(send);
    void queue.enqueue({ subjectId: 's1', path: 'limitations.whitelist.ids', operation: 'add', value: '7' });
    void queue.enqueue({ subjectId: 's1', path: 'limitations.whitelist.ids', operation: 'add', value: '8' });
    void queue.enqueue({ subjectId: 's1', path: 'staffRoles.value', operation: 'add', value: '7' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent(send)).toEqual([
      [
        { subjectId: 's1', path: 'limitations.whitelist.ids', operation: 'add', value: '7' },
        { subjectId: 's1', path: 'limitations.whitelist.ids', operation: 'add', value: '8' },
        { subjectId: 's1', path: 'staffRoles.value', operation: 'add', value: '7' },
      ],
    ]);
  });

  it('an add/remove after a queued set of its path is appended, not merged into the set', async () => {
    const send = echo();
    const queue = queueWith(send);
    void queue.enqueue({ subjectId: 's1', path: 'staffRoles.value', operation: 'set', value: [] });
    void queue.enqueue({ subjectId: 's1', path: 'staffRoles.value', operation: 'add', value: '1' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent(send)[0]?.map((u) => u.operation)).toEqual(['set', 'add']);
  });

  it('with a filterKey, elements with the same key are the same value', async () => {
    const send = echo();
    const queue = queueWith(send);
    const path = 'categories.waitingForStaff';
    void queue.enqueue({ subjectId: 's1', path, operation: 'add', value: { id: '5', selfCreated: false }, filterKey: 'id' });
    void queue.enqueue({ subjectId: 's1', path, operation: 'remove', value: { id: '5' }, filterKey: 'id' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(send.mock.calls[0]?.[0]).toEqual([
      { serverId: SERVER, subjectId: 's1', path, operation: 'remove', value: { id: '5' }, filterKey: 'id' },
    ]);
  });

  it('a replacing change goes to the end, so the latest intent is applied last', async () => {
    const send = echo();
    const queue = queueWith(send);
    const allow = 'permissions.userPermissions.value.allow';
    const deny = 'permissions.userPermissions.value.deny';
    void queue.enqueue({ subjectId: 's1', path: allow, operation: 'add', value: 'ViewChannel' });
    void queue.enqueue({ subjectId: 's1', path: deny, operation: 'add', value: 'ViewChannel' });
    void queue.enqueue({ subjectId: 's1', path: allow, operation: 'add', value: 'ViewChannel' });
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent(send)[0]?.map((u) => u.path)).toEqual([deny, allow]);
  });

  it('sends everything queued, across paths and subjects, as ONE bulk request when a wait ends', async () => {
    const send = echo();
    const queue = queueWith(send);
    void queue.enqueue({ subjectId: 's1', path: 'logging.created', operation: 'set', value: false });
    await vi.advanceTimersByTimeAsync(500);
    void queue.enqueue({ subjectId: 's1', path: 'logging.claimed', operation: 'set', value: false });
    void queue.enqueue({ subjectId: '', path: 'language', operation: 'set', value: 'de' });
    await vi.advanceTimersByTimeAsync(500);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]?.[0]).toEqual([
      { serverId: SERVER, subjectId: 's1', path: 'logging.created', operation: 'set', value: false },
      { serverId: SERVER, subjectId: 's1', path: 'logging.claimed', operation: 'set', value: false },
      { serverId: SERVER, subjectId: '', path: 'language', operation: 'set', value: 'de' },
    ]);
    // The later waits found nothing left to send.
    await vi.advanceTimersByTimeAsync(2000);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it("resolves each change with its path's result", async () => {
    const send = vi.fn(async () => [
      { path: 'ticketNameFormat.value', value: 'parent-{number}', inherits: true },
      { path: 'logging.created', value: false, inherits: false },
    ]);
    const queue = queueWith(send);
    const name = queue.enqueue({ subjectId: 's1', path: 'ticketNameFormat.value', operation: 'set', value: 'x-{number}' });
    const logging = queue.enqueue({ subjectId: 's1', path: 'logging.created', operation: 'set', value: false });
    await vi.advanceTimersByTimeAsync(1000);
    await expect(name).resolves.toEqual({ path: 'ticketNameFormat.value', value: 'parent-{number}', inherits: true });
    await expect(logging).resolves.toEqual({ path: 'logging.created', value: false, inherits: false });
  });

  it('keeps a change pending while its request runs and removes it when the request finishes', async () => {
    const { send, answer } = deferredSend();
    const onResults = vi.fn();
    const queue = queueWith(send, { onResults });
    const listener = vi.fn();
    queue.subscribe(listener);
    void queue.enqueue({ subjectId: 's1', path: 'active', operation: 'set', value: false });
    expect(queue.pending()).toMatchObject([{ path: 'active', state: 'queued' }]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(queue.pending()).toMatchObject([{ path: 'active', state: 'sending' }]);
    await answer();
    expect(queue.pending()).toEqual([]);
    expect(onResults).toHaveBeenCalledWith([
      {
        change: { subjectId: 's1', path: 'active', operation: 'set', value: false },
        result: { path: 'active', value: false, inherits: false },
      },
    ]);
    expect(listener).toHaveBeenCalled();
  });

  it('does not merge a change into one already sent, and sends it after that request', async () => {
    const { send, requests, answer } = deferredSend();
    const queue = queueWith(send);
    void queue.enqueue({ subjectId: 's1', path: 'name', operation: 'set', value: 'First' });
    await vi.advanceTimersByTimeAsync(1000);
    void queue.enqueue({ subjectId: 's1', path: 'name', operation: 'set', value: 'Second' });
    expect(queue.pending().map((p) => p.state)).toEqual(['sending', 'queued']);
    await vi.advanceTimersByTimeAsync(1000);
    // The second request waits for the first, so the server applies them in order.
    expect(requests).toHaveLength(1);
    await answer(0);
    expect(requests).toHaveLength(2);
    expect(requests[1]?.updates[0]?.value).toBe('Second');
    await answer(1);
    expect(queue.pending()).toEqual([]);
  });

  it("rejects every change of a failed request with the server's message, toasts it once and removes them", async () => {
    const failure = new ResponseError(new Response(null, { status: 402 }), {
      statusCode: 402,
      error: 'Payment Required',
      code: 'limit_reached',
      message: 'Auto-close is part of the Premium plan; this server is on the Free plan',
    });
    const send = vi.fn(async () => Promise.reject(failure));
    const queue = queueWith(send);
    const a = queue.enqueue({ subjectId: 's1', path: 'automation.autoCloseTime.enabled', operation: 'set', value: true });
    const b = queue.enqueue({ subjectId: 's1', path: 'logging.created', operation: 'set', value: true });
    const settled = Promise.allSettled([a, b]);
    await vi.advanceTimersByTimeAsync(1000);
    const [first, second] = await settled;
    const message = 'Auto-close is part of the Premium plan; this server is on the Free plan';
    expect(first).toMatchObject({ status: 'rejected', reason: { message } });
    expect(second).toMatchObject({ status: 'rejected', reason: { message } });
    expect(notifyError).toHaveBeenCalledTimes(1);
    expect(notifyError).toHaveBeenCalledWith(message);
    expect(queue.pending()).toEqual([]);
  });

  it('rejects with the client error message when the request itself fails', async () => {
    const send = vi.fn(async () => Promise.reject(new FetchError(new TypeError('offline'))));
    const queue = queueWith(send);
    const change = queue.enqueue({ subjectId: 's1', path: 'active', operation: 'set', value: true });
    const settled = Promise.allSettled([change]);
    await vi.advanceTimersByTimeAsync(1000);
    const message = 'The request failed and the interceptors did not return an alternative response';
    expect((await settled)[0]).toMatchObject({ status: 'rejected', reason: { message } });
    expect(notifyError).toHaveBeenCalledWith(message);
  });

  it('keeps sending after a failed request', async () => {
    const send = vi
      .fn<UpdateQueueOptions['send']>()
      .mockRejectedValueOnce(new Error('nope'))
      .mockResolvedValueOnce([{ path: 'active', value: true, inherits: false }]);
    const queue = queueWith(send, { onError: vi.fn() });
    void queue.enqueue({ subjectId: 's1', path: 'active', operation: 'set', value: false }).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(1000);
    const next = queue.enqueue({ subjectId: 's1', path: 'active', operation: 'set', value: true });
    await vi.advanceTimersByTimeAsync(1000);
    await expect(next).resolves.toEqual({ path: 'active', value: true, inherits: false });
  });

  it('flush sends at once and resolves when nothing is pending; discard drops what was not sent', async () => {
    const send = echo();
    const queue = queueWith(send);
    void queue.enqueue({ subjectId: 's1', path: 'active', operation: 'set', value: false });
    await queue.flush();
    expect(send).toHaveBeenCalledTimes(1);
    expect(queue.pending()).toEqual([]);

    const dropped = queue.enqueue({ subjectId: 's1', path: 'active', operation: 'set', value: true });
    queue.discard();
    await expect(dropped).rejects.toThrow('Discarded');
    await vi.advanceTimersByTimeAsync(2000);
    expect(send).toHaveBeenCalledTimes(1);
  });
});
