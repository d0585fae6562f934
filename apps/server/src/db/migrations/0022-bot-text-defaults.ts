import { type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from '../database';

/** The English texts new subjects were given before the bot spoke the subject's language. */
const OLD_BUTTON_TEXTS: Record<string, string> = {
  closeButton: 'Close',
  claimButton: 'Claim',
  cancelCloseButton: 'Cancel close',
  closeNowButton: 'Close now',
  goToTicket: 'Go to ticket',
};
const OLD_COLOR = 0x5865f2;
const oldWelcome = (name: string) => ({
  content: '{user}',
  embeds: [{ title: `Welcome to your ${name} ticket`, description: 'Thanks for reaching out! Describe your request and a member of staff will be with you shortly.', color: OLD_COLOR }],
});
const OLD_CLOSE = {
  content: '',
  embeds: [{ title: 'Ticket closed', description: 'This ticket has been closed. Thank you for contacting us.', color: OLD_COLOR }],
};
const EMPTY_MESSAGE = { content: '', embeds: [] };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Same JSON, whatever the order of keys (PostgreSQL's jsonb reorders them). */
const sameJson = (a: unknown, b: unknown): boolean => {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => sameJson(a[key], b[key]));
  }
  return a === b;
};

/**
 * Subjects made before the bot spoke their language hold its English defaults as if an admin had
 * written them, so they would stay English whatever the subject's language. Each text still equal
 * to the default it was given (a button label, the welcome for the subject's name as it was made,
 * the close message) is emptied, which now means "the bot's text in the ticket's language"; a text
 * an admin changed is kept as written.
 */
export const botTextDefaultsMigration = (_engine: Engine): Migration => ({
  async up(db: Kysely<unknown>) {
    const subjects = await sql<{ id: string; name: string; settings: unknown }>`select id, name, settings from subjects`.execute(db);
    for (const subject of subjects.rows) {
      const settings = (typeof subject.settings === 'string' ? JSON.parse(subject.settings) : subject.settings) as Json | null;
      if (!isObject(settings)) continue;
      let changed = false;
      const buttons = settings.buttons;
      if (isObject(buttons)) {
        for (const [key, old] of Object.entries(OLD_BUTTON_TEXTS)) {
          const button = buttons[key];
          if (isObject(button) && button.text === old) {
            button.text = '';
            changed = true;
          }
        }
      }
      const messages = settings.messages;
      if (isObject(messages)) {
        for (const [key, old] of [['initialMessage', oldWelcome(subject.name)], ['closeMessage', OLD_CLOSE]] as const) {
          const value = isObject(messages[key]) ? (messages[key] as Json).value : undefined;
          if (isObject(value) && sameJson(value.message, old)) {
            value.message = { ...EMPTY_MESSAGE };
            value.serialized = '';
            changed = true;
          }
        }
      }
      if (changed) await sql`update subjects set settings = ${JSON.stringify(settings)} where id = ${subject.id}`.execute(db);
    }
  },
  // The English texts come back only where they were taken away; there is no telling those apart
  // from texts emptied since, so nothing is put back.
  async down() {},
});
