import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import type { Channel, Embed, Role } from '@ticket/contracts';
import { describe, expect, it } from 'vitest';
import { PanelPreview, type PanelPreviewProps } from './panel-preview';

const channels: Channel[] = [{ id: '300000000000000105', type: 0, name: 'open-a-ticket' }];
const roles: Role[] = [
  {
    id: '300000000000000013',
    name: 'Support',
    permissions: '0',
    position: 1,
    color: 0x3498db,
    hoist: false,
    managed: false,
    mentionable: true,
  },
];

function preview(props: Partial<PanelPreviewProps>) {
  return render(
    <MantineProvider>
      <PanelPreview
        content=""
        embeds={[]}
        type="BUTTON"
        buttons={[]}
        options={[]}
        bot={{ name: 'Ticket Bot', avatarUrl: null }}
        mentions={{ channels, roles }}
        {...props}
      />
    </MantineProvider>,
  );
}

const region = () => screen.getByRole('region', { name: 'Preview of the panel message' });

describe('PanelPreview', () => {
  it('shows the bot and renders the content’s markdown, mentions and links, never raw HTML', () => {
    preview({
      content:
        '**Need help?** *Pick* __one__ ~~below~~ `now` in <#300000000000000105> or ask <@&300000000000000013> ' +
        '[the docs](https://example.com/docs) [bad](javascript:alert(1)) <b>not html</b>',
    });
    const view = within(region());
    expect(view.getByText('Ticket Bot')).toBeTruthy();
    expect(view.getByText('Need help?').tagName).toBe('STRONG');
    expect(view.getByText('Pick').tagName).toBe('EM');
    expect(view.getByText('one').tagName).toBe('U');
    expect(view.getByText('below').tagName).toBe('S');
    expect(view.getByText('now').tagName).toBe('CODE');
    expect(view.getByText('#open-a-ticket')).toBeTruthy();
    expect(view.getByText('@Support')).toBeTruthy();
    expect(view.getByRole('link', { name: 'the docs' }).getAttribute('href')).toBe('https://example.com/docs');
    expect(view.queryByRole('link', { name: 'bad' })).toBeNull();
    expect(region().querySelector('b')).toBeNull();
    expect(view.getByText(/<b>not html<\/b>/)).toBeTruthy();
  });

  it('renders an embed: colour bar, author, linked title, description, fields side by side, images, footer and timestamp', () => {
    const embed: Embed = {
      color: 0x57f287,
      author: { name: 'Pixel Forge Support', iconUrl: 'https://cdn.example.com/icon.png' },
      title: 'Open a ticket',
      url: 'https://example.com/help',
      description: 'We answer **fast**.',
      fields: [
        { name: 'Hours', value: '9–17', inline: true },
        { name: 'Languages', value: 'EN, DE', inline: true },
        { name: 'Wait', value: '< 1 h', inline: true },
        { name: 'Fourth', value: 'wraps', inline: true },
        { name: 'Rules', value: 'Be kind', inline: false },
      ],
      image: { url: 'https://cdn.example.com/banner.png' },
      thumbnail: { url: '{server.icon}' },
      footer: { text: 'Pixel Forge' },
      timestamp: '2025-03-01T10:00:00.000Z',
    };
    preview({ embeds: [embed] });
    const card = screen.getByRole('group', { name: 'Embed 1' });
    const view = within(card);
    expect(card.style.getPropertyValue('--embed-color')).toBe('#57f287');
    expect(view.getByText('Pixel Forge Support')).toBeTruthy();
    expect(view.getByRole('link', { name: 'Open a ticket' }).getAttribute('href')).toBe('https://example.com/help');
    expect(view.getByText('fast').tagName).toBe('STRONG');
    // With a thumbnail, inline fields sit two to a row; a block field takes a row of its own.
    const rows = [...card.querySelectorAll('[data-inline-row]')].map((row) => row.getAttribute('data-inline-row'));
    expect(rows).toEqual(['2', '2']);
    expect(card.querySelectorAll('[data-field="block"]')).toHaveLength(1);
    expect(view.getByRole('img', { name: 'Image' }).getAttribute('src')).toBe('https://cdn.example.com/banner.png');
    expect(view.getByRole('img', { name: 'Thumbnail' }).textContent).toBe('{server.icon}');
    expect(view.getByText('Pixel Forge')).toBeTruthy();
    expect(card.querySelector('time')?.getAttribute('datetime')).toBe('2025-03-01T10:00:00.000Z');
  });

  it('puts up to three inline fields in a row without a thumbnail', () => {
    preview({
      embeds: [
        {
          fields: [1, 2, 3, 4].map((n) => ({ name: `F${n}`, value: 'v', inline: true })),
        },
      ],
    });
    const card = screen.getByRole('group', { name: 'Embed 1' });
    expect([...card.querySelectorAll('[data-inline-row]')].map((row) => row.getAttribute('data-inline-row'))).toEqual([
      '3',
      '1',
    ]);
  });

  it('lays buttons out in rows of five, coloured by style, with their emoji', () => {
    const buttons = Array.from({ length: 7 }, (_, i) => ({
      text: `Topic ${i + 1}`,
      style: i === 0 ? ('Danger' as const) : ('Primary' as const),
      emoji: i === 0 ? { id: null, name: '🎫' } : null,
    }));
    preview({ buttons });
    const rows = screen.getAllByRole('list', { name: /^Button row/ });
    expect(rows.map((row) => within(row).getAllByRole('listitem').length)).toEqual([5, 2]);
    const first = within(rows[0] as HTMLElement).getAllByRole('listitem')[0] as HTMLElement;
    expect(first.textContent).toBe('🎫Topic 1');
    expect(first.getAttribute('data-style')).toBe('Danger');
  });

  it('shows a dropdown with its placeholder and options', () => {
    preview({
      type: 'LIST',
      buttons: [{ text: 'hidden', style: 'Primary', emoji: null }],
      options: [
        { label: 'Billing', description: 'Invoices and refunds', emoji: { id: null, name: '💳' } },
        { label: 'Bug report', description: null, emoji: null },
      ],
    });
    expect(screen.getByText('Make a selection')).toBeTruthy();
    const options = within(screen.getByRole('list', { name: 'Dropdown options' })).getAllByRole('listitem');
    expect(options.map((o) => o.textContent)).toEqual(['💳BillingInvoices and refunds', 'Bug report']);
    expect(screen.queryByText('hidden')).toBeNull();
  });

  it('says what to do while the message is empty', () => {
    preview({});
    expect(within(region()).getByText(/Write a message, add an embed or a button/)).toBeTruthy();
  });
});
