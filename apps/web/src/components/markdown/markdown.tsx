import { parse } from 'discord-markdown-parser';
import { createContext, Fragment, type ReactNode, useContext, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EmojiView } from '@/components/emoji-view';
import { relativeTime } from '@/lib/relative-time';
import classes from './markdown.module.css';

type Node = ReturnType<typeof parse>[number];

/**
 * How mentions read where the text is shown: the panel preview names the server's channels and
 * roles, a ticket names its users. Each answers the name without its `@` or `#`.
 */
export interface MentionNames {
  user: (id: string) => string;
  channel: (id: string) => string;
  role: (id: string) => { name: string; color?: string };
}

const byId: MentionNames = {
  user: (id) => id,
  channel: (id) => id,
  role: (id) => ({ name: id }),
};

export const MentionContext = createContext<MentionNames>(byId);

/** A role's colour as CSS, or none for a role without one (colour 0). */
const roleColor = (role: { color: number } | undefined): string | undefined =>
  role && role.color !== 0 ? `#${role.color.toString(16).padStart(6, '0')}` : undefined;

/**
 * Mention names from a server's channels and roles (none where they are not known), each role in
 * its colour; what is not among them reads as `unknown`.
 */
export function serverMentionNames(
  server: { channels: readonly { id: string; name?: string | null }[]; roles: readonly { id: string; name: string; color: number }[] } | null,
  user: (id: string) => string,
  unknown: { channel: string; role: string },
): MentionNames {
  return {
    user,
    channel: (id) => server?.channels.find((c) => c.id === id)?.name ?? unknown.channel,
    role: (id) => {
      const role = server?.roles.find((r) => r.id === id);
      return { name: role?.name ?? unknown.role, color: roleColor(role) };
    },
  };
}

/** Only web addresses become links: `javascript:` and the like stay text. */
export function safeHref(target: unknown): string | undefined {
  if (typeof target !== 'string') return undefined;
  try {
    const url = new URL(target.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function UserMention({ id }: { id: string }) {
  const names = useContext(MentionContext);
  return (
    <span className={classes.mention} data-mention="user" data-id={id}>
      @{names.user(id)}
    </span>
  );
}

function ChannelMention({ id }: { id: string }) {
  const names = useContext(MentionContext);
  return (
    <span className={classes.mention} data-mention="channel">
      #{names.channel(id)}
    </span>
  );
}

function RoleMention({ id }: { id: string }) {
  const names = useContext(MentionContext);
  const { name, color } = names.role(id);
  return (
    <span
      className={classes.mention}
      data-mention="role"
      style={color ? { color, backgroundColor: `${color}1f` } : undefined}
    >
      @{name}
    </span>
  );
}

const TIME_STYLES: Record<string, Intl.DateTimeFormatOptions> = {
  t: { timeStyle: 'short' },
  T: { timeStyle: 'medium' },
  d: { dateStyle: 'short' },
  D: { dateStyle: 'long' },
  f: { dateStyle: 'long', timeStyle: 'short' },
  F: { dateStyle: 'full', timeStyle: 'short' },
};

function Timestamp({ seconds, format }: { seconds: string; format: string | undefined }) {
  const { i18n } = useTranslation();
  const date = new Date(Number(seconds) * 1000);
  if (Number.isNaN(date.getTime())) return <>{`<t:${seconds}>`}</>;
  const text =
    format === 'R'
      ? relativeTime(date.toISOString(), i18n.language)
      : new Intl.DateTimeFormat(i18n.language, TIME_STYLES[format ?? 'f'] ?? TIME_STYLES.f).format(date);
  return (
    <time className={classes.timestamp} dateTime={date.toISOString()}>
      {text}
    </time>
  );
}

/** One node of the parsed text as React elements: text stays text, nothing is set as HTML. */
function renderNode(node: Node, key: number): ReactNode {
  const children = () => (Array.isArray(node.content) ? renderNodes(node.content as Node[]) : String(node.content ?? ''));
  switch (node.type) {
    case 'text':
      return <Fragment key={key}>{String(node.content ?? '')}</Fragment>;
    case 'br':
    case 'newline':
      return <br key={key} />;
    case 'strong':
      return <strong key={key}>{children()}</strong>;
    case 'em':
      return <em key={key}>{children()}</em>;
    case 'underline':
      return <u key={key}>{children()}</u>;
    case 'strikethrough':
      return <s key={key}>{children()}</s>;
    case 'inlineCode':
      return (
        <code key={key} className={classes.inlineCode}>
          {String(node.content ?? '')}
        </code>
      );
    case 'codeBlock':
      return (
        <pre key={key} className={classes.codeBlock}>
          <code>{String(node.content ?? '')}</code>
        </pre>
      );
    case 'blockQuote':
      return (
        <div key={key} className={classes.quote}>
          {children()}
        </div>
      );
    case 'spoiler':
      return (
        <span key={key} className={classes.spoiler}>
          {children()}
        </span>
      );
    case 'heading':
      return (
        <span key={key} className={classes.heading} data-level={node.level as number}>
          {children()}
        </span>
      );
    case 'subtext':
      return (
        <span key={key} className={classes.subtext}>
          {children()}
        </span>
      );
    case 'url':
    case 'autolink':
    case 'link': {
      const href = safeHref(node.target);
      return href ? (
        <a key={key} className={classes.link} href={href} target="_blank" rel="noopener noreferrer nofollow">
          {children()}
        </a>
      ) : (
        <Fragment key={key}>{children()}</Fragment>
      );
    }
    case 'user':
      return <UserMention key={key} id={String(node.id)} />;
    case 'channel':
      return <ChannelMention key={key} id={String(node.id)} />;
    case 'role':
      return <RoleMention key={key} id={String(node.id)} />;
    case 'everyone':
      return (
        <span key={key} className={classes.mention}>
          @everyone
        </span>
      );
    case 'here':
      return (
        <span key={key} className={classes.mention}>
          @here
        </span>
      );
    case 'emoji':
      return (
        <EmojiView
          key={key}
          emoji={{ id: String(node.id), name: String(node.name), animated: Boolean(node.animated) }}
          size={22}
        />
      );
    case 'twemoji':
      return <Fragment key={key}>{String(node.name ?? '')}</Fragment>;
    case 'timestamp':
      return <Timestamp key={key} seconds={String(node.timestamp)} format={node.format as string | undefined} />;
    case 'slashCommand':
      return (
        <span key={key} className={classes.mention}>
          /{String(node.fullName ?? node.name ?? '')}
        </span>
      );
    default:
      // Anything else the parser knows (guild navigation, emoticons…) is shown as its text.
      return Array.isArray(node.content) || typeof node.content === 'string' ? (
        <Fragment key={key}>{children()}</Fragment>
      ) : null;
  }
}

function renderNodes(nodes: readonly Node[]): ReactNode[] {
  return nodes.map((node, i) => renderNode(node, i));
}

/**
 * Chat-platform markdown: bold, italic, underline, strikethrough, code, quotes, links, mentions,
 * emoji, timestamps. The one renderer of the dashboard: panel previews and ticket messages both
 * use it. Colours follow the dashboard's theme unless the surrounding element sets the `--md-*`
 * variables (see markdown.module.css).
 */
export function Markdown({ text }: { text: string }) {
  const nodes = useMemo(() => parse(text, 'extended'), [text]);
  return <>{renderNodes(nodes)}</>;
}
