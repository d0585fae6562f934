/** Where the platform sends the browser back after the bot was invited (or the invite failed). */
export const inviteCallbackUrl = (): string => `${window.location.origin}/invite_callback`;

/**
 * The platform's bot invite, preset to one server so the user cannot add the bot elsewhere by
 * mistake, and coming back to /invite_callback with `guild_id` so the dashboard can carry on there.
 */
export function inviteUrlFor(inviteUrl: string, serverId: string): string {
  const url = new URL(inviteUrl);
  url.searchParams.set('guild_id', serverId);
  url.searchParams.set('disable_guild_select', 'true');
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', inviteCallbackUrl());
  return url.toString();
}
