import type { Channel, Emoji, Role, ServerSettings, SubjectShort } from '@ticket/contracts';
import { useEffect } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { getApi } from './api';

/** The per-server data the settings screens share (SPEC §3 "client-held data", §4 "Caches"). */
export interface ServerCacheData {
  emojis: Emoji[];
  channels: Channel[];
  roles: Role[];
  settings: ServerSettings;
  supportSubjects: SubjectShort[];
}

export type CacheKind = keyof ServerCacheData;

export const CACHE_KINDS: readonly CacheKind[] = ['emojis', 'channels', 'roles', 'settings', 'supportSubjects'];

export type CacheStatus = 'not loaded' | 'loading' | 'loaded';

export interface CacheEntry<K extends CacheKind = CacheKind> {
  status: CacheStatus;
  /** Set once loaded without error. */
  data: ServerCacheData[K] | undefined;
  /** The last load failed (status is then 'loaded'). */
  error: boolean;
}

export interface LoadOptions {
  /** Load again even when loaded. */
  force?: boolean;
  /** Ask the service to skip its own cache too (`clearCache`). */
  fresh?: boolean;
}

export type CacheLoader<K extends CacheKind> = (
  serverId: string,
  options: { fresh: boolean; signal: AbortSignal },
) => Promise<ServerCacheData[K]>;

type Entries = { [K in CacheKind]: CacheEntry<K> };

export interface ServerCacheState {
  serverId: string | null;
  entries: Entries;
  /** Makes `id` the current server; a different server discards every cache. */
  updateServerId(id: string): void;
  /** The entry of `kind`. Throws when no server is set. */
  read<K extends CacheKind>(kind: K): CacheEntry<K>;
  /** The data of `kind`, loading it first when needed. Throws when no server is set. */
  load<K extends CacheKind>(kind: K, options?: LoadOptions): Promise<ServerCacheData[K]>;
  clear(kind: CacheKind): void;
  clearAll(): void;
  /** Back to no server at all (on sign-out). */
  reset(): void;
}

export const SERVER_ID_NOT_SET = 'Server ID is not set. Call updateServerId() first.';

const notLoaded = (): CacheEntry => ({ status: 'not loaded', data: undefined, error: false });
const emptyEntries = (): Entries =>
  Object.fromEntries(CACHE_KINDS.map((kind) => [kind, notLoaded()])) as Entries;

const loaders: { [K in CacheKind]?: CacheLoader<K> } = {
  emojis: (serverId, { fresh, signal }) =>
    getApi().server.getServerEmojis({ params: { serverId }, query: { clearCache: fresh || undefined } }, { signal }),
  channels: (serverId, { fresh, signal }) =>
    getApi().server.getServerChannels({ params: { serverId }, query: { clearCache: fresh || undefined } }, { signal }),
  roles: (serverId, { fresh, signal }) =>
    getApi().server.getServerRoles({ params: { serverId }, query: { clearCache: fresh || undefined } }, { signal }),
};

/**
 * Plugs in the loader of a kind whose API lives in a feature (settings, support subjects), or
 * replaces one. Returns a function that removes it again.
 */
export function registerCacheLoader<K extends CacheKind>(kind: K, loader: CacheLoader<K>): () => void {
  const previous = loaders[kind];
  (loaders as Record<CacheKind, CacheLoader<CacheKind> | undefined>)[kind] = loader as unknown as CacheLoader<CacheKind>;
  return () => {
    if (loaders[kind] === loader) (loaders as Record<CacheKind, unknown>)[kind] = previous;
  };
}

export const hasCacheLoader = (kind: CacheKind): boolean => loaders[kind] !== undefined;

interface InFlight {
  promise: Promise<unknown>;
  controller: AbortController;
}

export function createServerCache() {
  // Loads under way, per kind. A load whose kind was cleared or whose server changed meanwhile is
  // aborted and its answer dropped, so data of one server never lands in another's cache.
  const inFlight = new Map<CacheKind, InFlight>();

  const abort = (kind?: CacheKind) => {
    for (const [key, load] of inFlight) {
      if (kind !== undefined && key !== kind) continue;
      load.controller.abort();
      inFlight.delete(key);
    }
  };

  return createStore<ServerCacheState>()((set, get) => {
    const requireServerId = (): string => {
      const { serverId } = get();
      if (serverId === null) throw new Error(SERVER_ID_NOT_SET);
      return serverId;
    };
    const setEntry = <K extends CacheKind>(kind: K, entry: CacheEntry<K>) =>
      set((state) => ({ entries: { ...state.entries, [kind]: entry } }));

    return {
      serverId: null,
      entries: emptyEntries(),

      updateServerId(id) {
        if (get().serverId === id) return;
        abort();
        set({ serverId: id, entries: emptyEntries() });
      },

      read(kind) {
        requireServerId();
        return get().entries[kind];
      },

      load<K extends CacheKind>(kind: K, options: LoadOptions = {}): Promise<ServerCacheData[K]> {
        const serverId = requireServerId();
        const entry = get().entries[kind];
        const running = inFlight.get(kind);
        if (running && !options.force) return running.promise as Promise<ServerCacheData[K]>;
        if (entry.status === 'loaded' && !entry.error && !options.force) {
          return Promise.resolve(entry.data as ServerCacheData[K]);
        }
        const loader = loaders[kind] as CacheLoader<K> | undefined;
        if (!loader) return Promise.reject(new Error(`No loader is registered for the ${kind} cache`));

        abort(kind);
        const controller = new AbortController();
        const current = () => inFlight.get(kind)?.controller === controller;
        setEntry(kind, { status: 'loading', data: entry.data, error: false });
        const promise = loader(serverId, { fresh: options.fresh ?? false, signal: controller.signal }).then(
          (data) => {
            if (current()) {
              inFlight.delete(kind);
              setEntry(kind, { status: 'loaded', data, error: false });
            }
            return data;
          },
          (error: unknown) => {
            if (current()) {
              inFlight.delete(kind);
              setEntry(kind, { status: 'loaded', data: undefined, error: true });
            }
            throw error;
          },
        );
        inFlight.set(kind, { promise, controller });
        return promise;
      },

      clear(kind) {
        abort(kind);
        setEntry(kind, notLoaded());
      },

      clearAll() {
        abort();
        set({ entries: emptyEntries() });
      },

      reset() {
        abort();
        set({ serverId: null, entries: emptyEntries() });
      },
    };
  });
}

/** The app's one cache: the server of the current `/staff/:serverId` route. */
export const serverCache = createServerCache();

export const useServerCacheStore = <T>(selector: (state: ServerCacheState) => T): T => useStore(serverCache, selector);

/**
 * Whether the per-server caches belong to `serverId`. The route guard points them at the route's
 * server before a screen renders; a screen mounted without it (a test, another route) does it here.
 */
export function useServerCacheFor(serverId: string): boolean {
  const current = useServerCacheStore((state) => state.serverId);
  useEffect(() => {
    if (serverId !== '' && serverCache.getState().serverId !== serverId) serverCache.getState().updateServerId(serverId);
  }, [serverId]);
  return current === serverId && serverId !== '';
}

/**
 * One cache group of the current server, loaded on first use. Throws, like `read`, when no server
 * is set: it belongs on the screens under `/staff/:serverId`, whose route sets it.
 */
export function useServerCache<K extends CacheKind>(kind: K): CacheEntry<K> & { reload: () => void } {
  const serverId = useServerCacheStore((state) => state.serverId);
  const entry = useServerCacheStore((state) => state.entries[kind]);
  if (serverId === null) throw new Error(SERVER_ID_NOT_SET);
  const shouldLoad = entry.status === 'not loaded' && hasCacheLoader(kind);

  useEffect(() => {
    // A failure is kept in the entry's error flag, where the screen shows it.
    if (shouldLoad) serverCache.getState().load(kind).catch(() => undefined);
  }, [kind, serverId, shouldLoad]);

  return {
    ...entry,
    reload: () => void serverCache.getState().load(kind, { force: true, fresh: true }).catch(() => undefined),
  };
}
