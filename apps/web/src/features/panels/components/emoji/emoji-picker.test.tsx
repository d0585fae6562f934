import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Emoji, EmojiRef } from '@ticket/contracts';
import { describe, expect, it, vi } from 'vitest';
import { EmojiPicker } from './emoji-picker';

const EMOJIS: Emoji[] = [
  { id: '300000000000000301', name: 'forge_hammer', animated: false, available: true },
  { id: '300000000000000302', name: 'party_parrot', animated: true, available: true },
  { id: '300000000000000303', name: 'gone', animated: false, available: false },
];

function picker(customEmojis: Emoji[] | undefined = EMOJIS) {
  const onPick = vi.fn<(emoji: EmojiRef) => void>();
  render(
    <MantineProvider>
      <EmojiPicker customEmojis={customEmojis} onPick={onPick} />
    </MantineProvider>,
  );
  return onPick;
}

describe('EmojiPicker', () => {
  it('lists the server’s usable custom emojis, marking animated ones, then common unicode ones', () => {
    picker();
    expect(screen.getByRole('group', { name: 'This server' })).toBeTruthy();
    expect(screen.getByRole('button', { name: ':forge_hammer:' })).toBeTruthy();
    expect(screen.getByRole('button', { name: ':party_parrot: (animated)' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: ':gone:' })).toBeNull();
    expect(screen.getByRole('group', { name: 'Common' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '🎫' })).toBeTruthy();
  });

  it('is searchable and used with the keyboard: ↓ into the grid, arrows to move, Enter to pick', async () => {
    const user = userEvent.setup({ delay: null });
    const onPick = picker();
    const search = screen.getByRole('textbox', { name: 'Search emoji' });
    expect(document.activeElement).toBe(search);
    await user.type(search, 'parrot');
    expect(screen.queryByRole('button', { name: ':forge_hammer:' })).toBeNull();
    expect(screen.getByText('No emoji matches.')).toBeTruthy();
    await user.clear(search);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: ':forge_hammer:' }));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: ':party_parrot: (animated)' }));
    // One stop in the tab order: the grid is entered at the emoji last focused.
    expect(screen.getAllByRole('button').filter((b) => b.tabIndex === 0)).toHaveLength(1);
    await user.keyboard('{Enter}');
    expect(onPick).toHaveBeenCalledWith({ id: '300000000000000302', name: 'party_parrot', animated: true });
  });

  it('says when the server has no custom emoji', () => {
    picker([]);
    expect(screen.getByText('This server has no custom emoji.')).toBeTruthy();
  });
});
