import type { Panel } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { draftOfPanel, embedOf, messageOf, move, newEmbed, newPanelDraft, toPanelInput } from './draft';

describe('panel drafts', () => {
  it('has no message while nothing is written, and a message once an embed exists', () => {
    const draft = { ...newPanelDraft(), embeds: [] };
    expect(messageOf(draft)).toBeNull();
    expect(messageOf({ ...draft, content: '  ' })).toBeNull();
    expect(messageOf({ ...draft, embeds: [newEmbed()] })).toEqual({ content: '', embeds: [{ color: 0x5865f2 }] });
  });

  it('sends only the embed parts that were filled in', () => {
    const embed = {
      ...newEmbed(),
      color: '',
      title: 'Help',
      authorIconUrl: 'https://cdn.example.com/a.png',
      footerText: ' ',
      fields: [{ key: 'f', name: 'Hours', value: '9–5', inline: true }],
      timestamp: '2025-03-01T10:00:00.000Z',
    };
    expect(embedOf(embed)).toEqual({
      title: 'Help',
      author: { name: '', iconUrl: 'https://cdn.example.com/a.png' },
      fields: [{ name: 'Hours', value: '9–5', inline: true }],
      timestamp: '2025-03-01T10:00:00.000Z',
    });
  });

  it('round-trips a stored panel, keeping the other kind of action for a switch', () => {
    const panel = {
      id: 'p1',
      serverId: '1',
      name: ' Desk ',
      draft: false,
      type: 'LIST',
      subjects: [{ subjectId: 's1', label: 'Billing', description: null, emoji: { id: null, name: '💳' } }],
      message: { content: 'Hi', embeds: [{ title: 'T', color: 0xff0000, footer: { text: 'F' } }] },
      integrationDetails: { channelId: 'c1', serverId: '1', messageId: 'm1' },
      lastSent: null,
    } as Panel;
    const draft = draftOfPanel(panel);
    expect(draft.buttons).toHaveLength(1);
    expect(toPanelInput(draft, false)).toEqual({
      name: 'Desk',
      draft: false,
      type: 'LIST',
      channelId: 'c1',
      message: panel.message,
      subjects: panel.subjects,
    });
    expect(toPanelInput({ ...draft, type: 'BUTTON' }, true).subjects).toEqual([
      { subjectId: null, text: '', style: 'Primary', emoji: null },
    ]);
  });

  it('moves rows', () => {
    expect(move(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
  });
});
