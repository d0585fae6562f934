import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '@/test/fetch';
import { startApi } from '@/test/render';
import { CACHE_KINDS, createServerCache, registerCacheLoader, SERVER_ID_NOT_SET } from './server-cache';

const emoji = (id: string) => ({ id, name: `e${id}`, require_colons: true, managed: false, animated: false, available: true });

/** A promise resolved from outside, to hold a load in flight. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('server cache (SPEC §4)', () => {
  beforeEach(startApi);

  it("refuses any read before a server is set: 'Server ID is not set…'", async () => {
    const cache = createServerCache();
    expect(SERVER_ID_NOT_SET).toBe('Server ID is not set. Call updateServerId() first.');
    expect(() => cache.getState().read('channels')).toThrow(SERVER_ID_NOT_SET);
    expect(() => cache.getState().load('roles')).toThrow(SERVER_ID_NOT_SET);
  });

  it('starts every group as not loaded, goes through loading to loaded, and loads once', async () => {
    const { calls } = mockFetch(() => json([emoji('1')]));
    const cache = createServerCache();
    cache.getState().updateServerId('42');
    for (const kind of CACHE_KINDS) expect(cache.getState().read(kind)).toEqual({ status: 'not loaded', data: undefined, error: false });

    const loading = cache.getState().load('emojis');
    expect(cache.getState().read('emojis').status).toBe('loading');
    await expect(loading).resolves.toEqual([emoji('1')]);
    expect(cache.getState().read('emojis')).toEqual({ status: 'loaded', data: [emoji('1')], error: false });

    await cache.getState().load('emojis');
    expect(calls.map((call) => call.url)).toEqual(['/api/server/servers/42/emojis']);
  });

  it('loads channels and roles from the server-data service, skipping its cache on a forced fresh load', async () => {
    const { calls } = mockFetch(() => json([]));
    const cache = createServerCache();
    cache.getState().updateServerId('42');
    await cache.getState().load('channels');
    await cache.getState().load('roles');
    await cache.getState().load('roles', { force: true, fresh: true });
    expect(calls.map((call) => call.url)).toEqual([
      '/api/server/servers/42/channels',
      '/api/server/servers/42/roles',
      '/api/server/servers/42/roles?clearCache=true',
    ]);
  });

  it('marks a failed load as loaded with the error flag, and loads again when forced', async () => {
    let fail = true;
    mockFetch(() =>
      fail ? json({ statusCode: 502, error: 'Bad Gateway', code: 'upstream', message: 'x' }, { status: 502 }) : json([]),
    );
    const cache = createServerCache();
    cache.getState().updateServerId('42');
    await expect(cache.getState().load('channels')).rejects.toThrow('Response returned an error code');
    expect(cache.getState().read('channels')).toEqual({ status: 'loaded', data: undefined, error: true });
    fail = false;
    await cache.getState().load('channels', { force: true });
    expect(cache.getState().read('channels')).toEqual({ status: 'loaded', data: [], error: false });
  });

  it('clears one kind, or all of them', async () => {
    mockFetch(() => json([]));
    const cache = createServerCache();
    cache.getState().updateServerId('42');
    await Promise.all([cache.getState().load('emojis'), cache.getState().load('roles')]);
    cache.getState().clear('emojis');
    expect(cache.getState().read('emojis').status).toBe('not loaded');
    expect(cache.getState().read('roles').status).toBe('loaded');
    cache.getState().clearAll();
    expect(cache.getState().read('roles').status).toBe('not loaded');
    expect(cache.getState().serverId).toBe('42');
  });

  it('discards everything when the server changes, and drops answers that arrive for the old one', async () => {
    const pending = deferred<Response>();
    mockFetch((request) => (request.url.includes('/servers/1/') ? pending.promise : json([emoji('2')])));
    const cache = createServerCache();
    cache.getState().updateServerId('1');
    const old = cache.getState().load('emojis');
    cache.getState().updateServerId('1');
    expect(cache.getState().read('emojis').status).toBe('loading');

    cache.getState().updateServerId('2');
    expect(cache.getState().serverId).toBe('2');
    expect(cache.getState().read('emojis')).toEqual({ status: 'not loaded', data: undefined, error: false });
    pending.resolve(json([emoji('1')]));
    await old.catch(() => undefined);
    expect(cache.getState().read('emojis').status).toBe('not loaded');
    await expect(cache.getState().load('emojis')).resolves.toEqual([emoji('2')]);
  });

  it('takes the loaders of settings and support subjects when their features register them', async () => {
    const cache = createServerCache();
    cache.getState().updateServerId('42');
    await expect(cache.getState().load('supportSubjects')).rejects.toThrow('No loader is registered');
    const subjects = [{ subjectId: 's1', serverId: '42', name: 'Billing', deleted: false }];
    const unregister = registerCacheLoader('supportSubjects', async (serverId) => {
      expect(serverId).toBe('42');
      return subjects;
    });
    await expect(cache.getState().load('supportSubjects', { force: true })).resolves.toEqual(subjects);
    expect(cache.getState().read('supportSubjects').data).toEqual(subjects);
    unregister();
  });
});
