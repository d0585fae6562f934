/**
 * The query keys of the panels screen. The list shares its key with the staff screens'
 * `['settings', serverId, 'panels']`, so every screen reads one cached answer.
 */
export const panelsKeys = {
  list: (serverId: string) => ['settings', serverId, 'panels'] as const,
};
