import type { PublicUser, Ticket } from '@ticket/contracts';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { type MentionNames, serverMentionNames } from '@/components/markdown/markdown';
import { serverCache, useServerCacheFor, useServerCacheStore } from '@/lib/server-cache';
import { useUserProfiles } from '../../api/get-users';

/**
 * The people of a ticket by id: the profiles it carries, and those of users its messages mention
 * that it does not carry (loaded once).
 */
export function useTicketPeople(ticket: Ticket, serverId: string | null): Map<string, PublicUser> {
  const known = new Set(ticket.users.map((user) => user.id));
  const missing = ticket.messages.flatMap((message) => message.message.mentions).filter((id) => !known.has(id));
  const profiles = useUserProfiles(missing, serverId);
  return useMemo(
    () => new Map([...(profiles.data ?? []), ...ticket.users].map((user) => [user.id, user])),
    [profiles.data, ticket.users],
  );
}

/**
 * The channels and roles of the server whose staff screens are open (loaded once per server, and
 * shared with its settings and panels); null in a member's own view, which has no such access.
 */
function useServerMentionTargets(serverId: string | null) {
  const enabled = useServerCacheFor(serverId ?? '');
  const channels = useServerCacheStore((state) => state.entries.channels);
  const roles = useServerCacheStore((state) => state.entries.roles);
  useEffect(() => {
    if (!enabled) return;
    const { entries, load } = serverCache.getState();
    // Without them, mentions read as unknown: a failure changes nothing else on the screen.
    for (const kind of ['channels', 'roles'] as const) if (entries[kind].status === 'not loaded') load(kind).catch(() => undefined);
  }, [enabled]);
  return enabled ? { channels: channels.data ?? [], roles: roles.data ?? [] } : null;
}

/**
 * Mentions in a ticket's messages read as names: `<@id>` is "@Ada"; for staff (`serverId` given)
 * `<#id>` and `<@&id>` are the server's channel and role, in the role's colour.
 */
export function useTicketMentionNames(people: Map<string, PublicUser>, serverId: string | null): MentionNames {
  const { t } = useTranslation();
  const targets = useServerMentionTargets(serverId);
  return useMemo(
    () =>
      serverMentionNames(targets, (id) => people.get(id)?.name ?? id, {
        channel: t('tickets.message.unknownChannel'),
        role: t('tickets.message.unknownRole'),
      }),
    [people, targets, t],
  );
}
