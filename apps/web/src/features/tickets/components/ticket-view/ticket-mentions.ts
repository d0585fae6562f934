import type { PublicUser, Ticket } from '@ticket/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { MentionNames } from '@/components/markdown/markdown';
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

/** Mentions in a ticket's messages read as the people's names: `<@id>` is "@Ada". */
export function useTicketMentionNames(people: Map<string, PublicUser>): MentionNames {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      user: (id) => people.get(id)?.name ?? id,
      channel: () => t('tickets.message.unknownChannel'),
      role: () => ({ name: t('tickets.message.unknownRole') }),
    }),
    [people, t],
  );
}
