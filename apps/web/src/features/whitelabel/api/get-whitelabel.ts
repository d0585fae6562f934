import { useQuery } from '@tanstack/react-query';
import { whitelabelQueryOptions } from '@/lib/queries/get-whitelabel';

/** How often the page asks again while the bot is on its way up. */
export const WHITELABEL_POLL_INTERVAL_MS = 3000;

/**
 * The server's white-label bot (null: none set up yet), followed live while it starts: the
 * runner reports Running or Failed to the service, and the page asks for it every few seconds
 * until then. `deploying` keeps it asking right after a save or a start, before the service has
 * said Starting. The fetcher is shared with the panels' preview (lib/queries/get-whitelabel.ts).
 */
export const useLiveWhitelabel = (serverId: string, { deploying = false }: { deploying?: boolean } = {}) =>
  useQuery({
    ...whitelabelQueryOptions(serverId),
    enabled: serverId !== '',
    refetchInterval: (query) => (deploying || query.state.data?.status === 'Starting' ? WHITELABEL_POLL_INTERVAL_MS : false),
    refetchIntervalInBackground: false,
  });
