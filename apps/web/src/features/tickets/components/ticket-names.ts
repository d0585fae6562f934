import type { PublicUser } from '@ticket/contracts';

/** A user's name as the ticket knows it, or their id when the ticket carries no profile for them. */
export const nameIn = (users: PublicUser[], id: string | null | undefined): string | undefined =>
  id ? (users.find((user) => user.id === id)?.name ?? id) : undefined;
