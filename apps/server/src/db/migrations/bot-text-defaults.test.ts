import { describe, expect, it } from 'vitest';
import { engines, freshDatabase } from '../../test/harness';
import { fromJson, toJson } from '../database';
import { migrateToLatest } from '../migrate';

const AT = '2026-01-01T00:00:00.000Z';
const message = (content: string, title: string, description: string) => ({
  value: { message: { content, embeds: [{ title, description, color: 0x5865f2 }] }, serialized: '' },
  inherits: false,
  enabled: true,
});
/** A subject as the dashboard made it before the bot spoke the subject's language. */
const madeBefore = (name: string) => ({
  messages: {
    initialMessage: message('{user}', `Welcome to your ${name} ticket`, 'Thanks for reaching out! Describe your request and a member of staff will be with you shortly.'),
    closeMessage: message('', 'Ticket closed', 'This ticket has been closed. Thank you for contacting us.'),
    messageCommandResponse: message('', name, 'A member of staff will answer here.'),
  },
  buttons: {
    closeButton: { text: 'Close', style: 'Danger', url: null, emote: { id: null, name: '🔒' } },
    claimButton: { text: 'Claim', style: 'Success', url: null, emote: { id: null, name: '🙋' } },
    cancelCloseButton: { text: 'Cancel close', style: 'Secondary', url: null, emote: null },
    closeNowButton: { text: 'Close now', style: 'Danger', url: null, emote: null },
    goToTicket: { text: 'Go to ticket', style: 'Link', url: null, emote: { id: null, name: '🎫' } },
  },
});

describe.each(engines)('upgrading subjects made with English defaults (migration 0022) on %s', (engine) => {
  it("empties the texts still as they were given, so that the bot writes them in the ticket's language, and keeps what admins wrote", async () => {
    const database = await freshDatabase(engine, '0021-public-stats');
    const { db } = database;
    try {
      await db.insertInto('servers').values({ id: '1', name: 'Pixel Forge', icon: null, owner_id: null, active: 1, plan: 'free', created_at: AT, updated_at: AT }).execute();
      const untouched = madeBefore('Billing');
      const edited = madeBefore('Orders');
      edited.buttons.closeButton.text = 'Schließen';
      edited.messages.initialMessage.value.message.embeds[0]!.title = 'Hallo {user}';
      // Renamed since it was made: its welcome names the old name, which cannot be told from an admin's own text, so it is kept.
      const renamed = madeBefore('Bugs');
      for (const [id, name, settings] of [['s1', 'Billing', untouched], ['s2', 'Orders', edited], ['s3', 'Bug reports', renamed]] as const) {
        await db
          .insertInto('subjects')
          .values({ id, server_id: '1', name, name_key: name.toLowerCase(), deleted: 0, active: 1, position: 0, inherits_from: null, settings: toJson(settings), created_at: AT, updated_at: AT })
          .execute();
      }

      await migrateToLatest(db, engine);

      const stored = async (id: string) =>
        fromJson<ReturnType<typeof madeBefore>>((await db.selectFrom('subjects').select('settings').where('id', '=', id).executeTakeFirstOrThrow()).settings);
      const billing = await stored('s1');
      expect(Object.values(billing.buttons).map((button) => button.text)).toEqual(['', '', '', '', '']);
      expect(billing.buttons.closeButton.emote).toEqual({ id: null, name: '🔒' });
      expect(billing.messages.initialMessage.value.message).toEqual({ content: '', embeds: [] });
      expect(billing.messages.closeMessage.value.message).toEqual({ content: '', embeds: [] });
      expect(billing.messages.initialMessage.enabled).toBe(true);
      // Never sent by the bot: left as it was.
      expect(billing.messages.messageCommandResponse).toEqual(untouched.messages.messageCommandResponse);

      const orders = await stored('s2');
      expect(orders.buttons.closeButton.text).toBe('Schließen');
      expect(orders.buttons.claimButton.text).toBe('');
      expect(orders.messages.initialMessage.value.message.embeds[0]!.title).toBe('Hallo {user}');
      expect(orders.messages.closeMessage.value.message).toEqual({ content: '', embeds: [] });

      const bugs = await stored('s3');
      expect(bugs.messages.initialMessage.value.message).toEqual(renamed.messages.initialMessage.value.message);
      expect(bugs.buttons.goToTicket.text).toBe('');
    } finally {
      await database.destroy();
    }
  });
});
