import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EmbedView } from './embed-view';
import { Markdown, MentionContext, type MentionNames, safeHref } from './markdown';

const names: MentionNames = {
  user: (id) => (id === '100000000000000001' ? 'Ada Lovelace' : id),
  channel: () => 'help-desk',
  role: () => ({ name: 'Support', color: '#3498db' }),
};

function show(text: string, mentions?: MentionNames) {
  const content = <Markdown text={text} />;
  return render(
    <MantineProvider>
      <div data-testid="text">{mentions ? <MentionContext.Provider value={mentions}>{content}</MentionContext.Provider> : content}</div>
    </MantineProvider>,
  );
}

describe('Markdown (the one renderer of chat-platform text)', () => {
  it('renders the formatting as elements and keeps HTML as text', () => {
    show('**bold** *it* __under__ ~~gone~~ `code` <img src=x onerror=alert(1)>');
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    expect(screen.getByText('it').tagName).toBe('EM');
    expect(screen.getByText('under').tagName).toBe('U');
    expect(screen.getByText('gone').tagName).toBe('S');
    expect(screen.getByText('code').tagName).toBe('CODE');
    expect(screen.getByTestId('text').querySelector('img')).toBeNull();
    expect(screen.getByText(/<img src=x onerror=alert\(1\)>/)).toBeTruthy();
  });

  it('names mentions as the context says: @user, #channel, @role', () => {
    show('Hi <@100000000000000001> and <@!100000000000000009>, see <#300000000000000001>, <@&300000000000000002>', names);
    expect(screen.getByText('@Ada Lovelace')).toBeTruthy();
    expect(screen.getByText('@100000000000000009')).toBeTruthy();
    expect(screen.getByText('#help-desk')).toBeTruthy();
    expect(screen.getByText('@Support').style.color).toBe('rgb(52, 152, 219)');
  });

  it('links web addresses only', () => {
    show('[docs](https://example.com/docs) [bad](javascript:alert(1)) <https://example.com/x>');
    expect(screen.getByRole('link', { name: 'docs' }).getAttribute('href')).toBe('https://example.com/docs');
    expect(screen.getByRole('link', { name: 'docs' }).getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(screen.queryByRole('link', { name: 'bad' })).toBeNull();
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref(' http://example.com ')).toBe('http://example.com/');
  });

  it('renders an embed with the labels it is given', () => {
    render(
      <MantineProvider>
        <EmbedView embed={{ title: 'Rules', description: 'Be **kind**', color: 0xff0000 }} labels={{ embed: 'Embed 1', thumbnail: 'Thumbnail', image: 'Image' }} />
      </MantineProvider>,
    );
    const group = screen.getByRole('group', { name: 'Embed 1' });
    expect(group.style.getPropertyValue('--embed-color')).toBe('#ff0000');
    expect(screen.getByText('kind').tagName).toBe('STRONG');
  });
});
