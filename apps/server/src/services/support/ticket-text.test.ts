import { PermissionFlagsBits } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { BotWords } from '../../i18n/bot-words';
import {
  fillPlaceholders,
  overwrite,
  parseFormCustomId,
  parseTicketCustomId,
  platformButton,
  spanMs,
  spanText,
  ticketChannelName,
  ticketCustomId,
  type TicketContext,
} from './ticket-text';

const say = new BotWords().for('en');

const context: TicketContext = { userId: '1200000000000000005', username: 'Eli Park', ticketNumber: 7, subjectName: 'Billing', serverName: 'Pixel Forge' };

describe('ticket texts', () => {
  it('names the channel from the format as the platform names text channels', () => {
    expect(ticketChannelName('ticket-{number}', context)).toBe('ticket-0007');
    expect(ticketChannelName('{subject} {username}!', context)).toBe('billing-eli-park');
    expect(ticketChannelName('{userId}', context)).toBe('1200000000000000005');
    expect(ticketChannelName('   ', context)).toBe('ticket-7');
    expect(ticketChannelName('x'.repeat(150), context)).toHaveLength(100);
  });

  it('fills the placeholders of messages, mentioning the user', () => {
    expect(fillPlaceholders('Hi {user} ({user.name}), ticket {ticket.number} in {subject} on {server} at {ticket.channel}', { ...context, channelId: '42' })).toBe(
      'Hi <@1200000000000000005> (Eli Park), ticket 7 in Billing on Pixel Forge at <#42>',
    );
  });

  it('reads back the ids it gives buttons and modals', () => {
    expect(parseTicketCustomId(ticketCustomId('close', '1300000000000000999'))).toEqual({ action: 'close', ticketId: '1300000000000000999' });
    expect(parseTicketCustomId(ticketCustomId('cancel-close', 't'))).toEqual({ action: 'cancel-close', ticketId: 't' });
    expect(parseTicketCustomId('ticket:explode:t')).toBeNull();
    expect(parseFormCustomId('form:p1:s1')).toEqual({ panelId: 'p1', subjectId: 's1' });
    expect(parseFormCustomId('panel:p1:s1')).toBeNull();
  });

  it('turns a subject’s allow and deny lists into permission bits, always letting the person see the channel', () => {
    const result = overwrite('55', 'member', { allow: ['SendMessages', 'AttachFiles'], deny: ['ViewChannel', 'MentionEveryone'] }, ['ViewChannel']);
    expect(result.type).toBe(1);
    expect(BigInt(result.allow)).toBe(PermissionFlagsBits.SendMessages | PermissionFlagsBits.AttachFiles | PermissionFlagsBits.ViewChannel);
    expect(BigInt(result.deny)).toBe(PermissionFlagsBits.MentionEveryone);
    expect(overwrite('66', 'role', { allow: [], deny: [] }).type).toBe(0);
  });

  it('draws a subject button, a Link one only with a web address', () => {
    const base = { text: 'Close', style: 'Danger' as const, url: null, emote: { id: null, name: '🔒', animated: false } };
    expect(platformButton(base, 'ticket:close:t', 'Close')).toEqual({ type: 2, style: 4, label: 'Close', custom_id: 'ticket:close:t', emoji: { name: '🔒' } });
    expect(platformButton({ ...base, style: 'Link', url: 'https://example.com', emote: null }, 'x', 'Close')).toEqual({ type: 2, style: 5, label: 'Close', url: 'https://example.com' });
    expect(platformButton({ ...base, text: ' ', style: 'Link', url: '{ticket.url}', emote: null }, 'x', 'Fallback')).toMatchObject({ style: 2, label: 'Fallback', custom_id: 'x' });
  });

  it('measures and words time spans', () => {
    expect(spanMs({ time: 2, unit: 'hours' })).toBe(7_200_000);
    expect(spanMs(null)).toBe(0);
    expect(spanText(90_000, say)).toBe('2 minutes');
    expect(spanText(3_600_000, say)).toBe('1 hour');
    expect(spanText(1500, say)).toBe('2 seconds');
    expect(spanText(5 * 60_000, new BotWords().for('ru'))).toBe('5 минут');
  });
});
