/** Whose tickets a screen shows: one server's (staff), or the signed-in member's own on every server. */
export type TicketScope = { kind: 'server'; serverId: string } | { kind: 'personal' };
