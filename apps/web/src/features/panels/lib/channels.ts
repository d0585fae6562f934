import type { Channel } from '@ticket/contracts';

/** SPEC §9 channel types a panel can be posted in: Text (0) and News, the announcement channel (5). */
export const PANEL_CHANNEL_TYPES: ReadonlySet<number> = new Set([0, 5]);
const CATEGORY = 4;

const byPosition = (a: Channel, b: Channel) => (a.position ?? 0) - (b.position ?? 0);

export interface ChannelItem {
  value: string;
  label: string;
}
export interface ChannelGroup {
  group: string;
  items: ChannelItem[];
}

/**
 * The channels a panel can go to, in the server's order: those outside a category first (under
 * `looseLabel`), then each category's under its name, as the platform's channel list shows them.
 */
export function panelChannelGroups(channels: readonly Channel[], looseLabel: string): ChannelGroup[] {
  const categories = channels.filter((c) => c.type === CATEGORY).sort(byPosition);
  const postable = channels.filter((c) => PANEL_CHANNEL_TYPES.has(c.type)).sort(byPosition);
  const item = (c: Channel): ChannelItem => ({ value: c.id, label: `#${c.name ?? c.id}` });
  const inCategory = (c: Channel) => categories.some((k) => k.id === c.parent_id);
  const groups: ChannelGroup[] = [];
  const loose = postable.filter((c) => !inCategory(c)).map(item);
  if (loose.length > 0) groups.push({ group: looseLabel, items: loose });
  for (const category of categories) {
    const items = postable.filter((c) => c.parent_id === category.id).map(item);
    if (items.length > 0) groups.push({ group: category.name ?? category.id, items });
  }
  return groups;
}

/** `#name` of a channel, or undefined when the server has no such channel (any more). */
export const channelName = (channels: readonly Channel[] | undefined, id: string | null): string | undefined => {
  if (!id) return undefined;
  const channel = channels?.find((c) => c.id === id);
  return channel ? `#${channel.name ?? channel.id}` : undefined;
};
