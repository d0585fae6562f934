import { paths } from '@/lib/routes';

/** The personal ticket list, optionally filtered to one server (`?server=`). */
export const myTicketsPath = (serverId?: string): string =>
  serverId ? `${paths.myTickets()}?server=${encodeURIComponent(serverId)}` : paths.myTickets();

/** Discord's own screen, where a user creates a new server. */
export const CREATE_SERVER_URL = 'https://discord.com/channels/@me';
