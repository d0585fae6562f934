import { Avatar, Box, Tooltip, VisuallyHidden } from '@mantine/core';
import type { PublicUser } from '@ticket/contracts';

const SHOWN = 3;

/** The staff who wrote in a ticket, as a row of avatars; their names are there for screen readers too. */
export function Attendees({ ids, profileOf }: { ids: string[]; profileOf: (id: string) => PublicUser | undefined }) {
  if (ids.length === 0) return <>—</>;
  const people = ids.map((id) => ({ id, name: profileOf(id)?.name ?? id, avatarUrl: profileOf(id)?.avatarUrl ?? null }));
  const names = people.map((person) => person.name).join(', ');
  const rest = people.length - SHOWN;
  return (
    <Box>
      <Tooltip label={names} withArrow openDelay={300}>
        <Avatar.Group spacing="xs" aria-hidden>
          {people.slice(0, SHOWN).map((person) => (
            <Avatar key={person.id} src={person.avatarUrl} alt="" name={person.name} color="initials" size="sm" />
          ))}
          {rest > 0 && <Avatar size="sm">+{rest}</Avatar>}
        </Avatar.Group>
      </Tooltip>
      <VisuallyHidden>{names}</VisuallyHidden>
    </Box>
  );
}
