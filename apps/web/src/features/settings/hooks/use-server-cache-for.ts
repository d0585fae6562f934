import { registerSettingsCacheLoaders } from '../api/server-settings-cache';

registerSettingsCacheLoaders();

/** The settings screens' per-server caches, with the loaders of the kinds the settings API answers. */
export { useServerCacheFor } from '@/lib/server-cache';
