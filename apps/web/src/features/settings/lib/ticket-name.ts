/** Sample values the ticket name preview fills the placeholders with. */
export interface TicketNameSample {
  number: number;
  username: string;
  userId: string;
  subject: string;
}

/**
 * The channel name a ticket name format gives, as the platform stores text channel names:
 * lower case, spaces as dashes, no characters it drops, at most 100 characters.
 */
export function previewTicketName(format: string, sample: TicketNameSample): string {
  const filled = format
    .replaceAll('{number}', String(sample.number))
    .replaceAll('{username}', sample.username)
    .replaceAll('{userId}', sample.userId)
    .replaceAll('{subject}', sample.subject);
  return filled
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/[^\p{L}\p{N}_-]/gu, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
}
