import { describe, expect, it } from 'vitest';
import { EmojiRef } from './common';
import { UploadTranslationRequest } from './localization';
import { PanelInput, TemplateDraft } from './settings';
import { UpdateTicketRequest } from './support';

/** Inputs an integrator may shorten: what is left out takes the default its schema documents. */
describe('input defaults', () => {
  it('fill in a panel given only its type, subjects, channel and message', () => {
    const buttons = PanelInput.parse({
      type: 'BUTTON',
      subjects: [{ subjectId: 's1', text: 'Billing' }],
      channelId: '1098765432109876601',
      message: { content: 'Need help?' },
    });
    expect(buttons).toEqual({
      type: 'BUTTON',
      name: '',
      draft: false,
      subjects: [{ subjectId: 's1', text: 'Billing', style: 'Primary', emoji: null }],
      channelId: '1098765432109876601',
      message: { content: 'Need help?', embeds: [] },
    });
    const list = PanelInput.parse({ type: 'LIST', subjects: [{ subjectId: 's1', label: 'Billing' }], channelId: null, message: null, draft: true });
    expect(list.subjects).toEqual([{ subjectId: 's1', label: 'Billing', description: null, emoji: null }]);
  });

  it('still apply the panel rules to a panel that is not a draft', () => {
    const result = PanelInput.safeParse({ type: 'BUTTON', subjects: [{ subjectId: 's1', text: 'Billing' }], channelId: null, message: null });
    expect(result.success).toBe(false);
  });

  it('fill in form questions', () => {
    expect(TemplateDraft.parse({ type: 'Text', question: 'Order number', slug: 'order', index: 0 })).toEqual({
      type: 'Text',
      question: 'Order number',
      slug: 'order',
      index: 0,
      answerFormat: 'None',
      values: { large: false, minLength: null, maxLength: null, placeholder: null },
    });
    const buttons = TemplateDraft.parse({ type: 'Button', question: 'Urgent?', slug: 'urgent', index: 1, values: [{ buttonId: 'yes', text: 'Yes' }] });
    expect(buttons.values).toEqual([{ buttonId: 'yes', text: 'Yes', style: 'Primary', url: null, emote: null }]);
  });

  it('fill in a closure, an upload and a unicode emoji', () => {
    expect(UpdateTicketRequest.parse({ closure: { closedBy: '302050872383242240' } }).closure).toEqual({
      closedBy: '302050872383242240',
      reason: null,
      force: false,
    });
    expect(UploadTranslationRequest.parse({ sourceLanguage: 'en', fileName: 'bot', document: {} }).addToLocalazy).toBe(false);
    expect(EmojiRef.parse({ name: '🎫' })).toEqual({ id: null, name: '🎫' });
    expect(EmojiRef.safeParse({}).success).toBe(false);
  });
});
