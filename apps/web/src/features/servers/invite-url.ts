/** The platform's bot invite, preset to one server so the user cannot add the bot elsewhere by mistake. */
export function inviteUrlFor(inviteUrl: string, serverId: string): string {
  const url = new URL(inviteUrl);
  url.searchParams.set('guild_id', serverId);
  url.searchParams.set('disable_guild_select', 'true');
  return url.toString();
}
