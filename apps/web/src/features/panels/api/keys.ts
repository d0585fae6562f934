import { panelsQueryKey } from '@/lib/queries/get-panels';

/**
 * The query keys of the panels screen. The list shares its key with the staff screens'
 * `['settings', serverId, 'panels']` (lib/queries/get-panels.ts), so every screen reads one cached answer.
 */
export const panelsKeys = {
  list: panelsQueryKey,
};
