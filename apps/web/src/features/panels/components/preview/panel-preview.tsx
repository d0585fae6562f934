import type { Embed, EmbedField, EmojiRef, PanelButtonStyle, PanelType } from '@ticket/contracts';
import { DISCORD_LIMITS } from '@ticket/contracts/rules';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { EmojiView } from '../emoji/emoji-view';
import { Markdown, type MentionLookup, MentionContext, safeHref } from './markdown';
import classes from './panel-preview.module.css';

export interface PreviewButton {
  text: string;
  style: PanelButtonStyle;
  emoji: EmojiRef | null;
}

export interface PreviewOption {
  label: string;
  description: string | null;
  emoji: EmojiRef | null;
}

export interface PanelPreviewProps {
  content: string;
  embeds: readonly Embed[];
  type: PanelType;
  buttons: readonly PreviewButton[];
  options: readonly PreviewOption[];
  bot: { name: string; avatarUrl: string | null };
  mentions?: MentionLookup;
  /** When the message is shown as posted; now by default. */
  now?: Date;
}

const PLACEHOLDER = /^\{[A-Za-z][\w.]*\}$/;

const hexOf = (color: number | undefined): string | undefined =>
  color === undefined ? undefined : `#${color.toString(16).padStart(6, '0')}`;

/** Consecutive inline fields share a row, up to three (two beside a thumbnail); others take a row each. */
export function fieldRows(fields: readonly EmbedField[], perRow: number): EmbedField[][] {
  const rows: EmbedField[][] = [];
  let run: EmbedField[] = [];
  for (const field of fields) {
    if (field.inline) {
      if (run.length === perRow) {
        rows.push(run);
        run = [];
      }
      run.push(field);
    } else {
      if (run.length > 0) rows.push(run);
      run = [];
      rows.push([field]);
    }
  }
  if (run.length > 0) rows.push(run);
  return rows;
}

export const chunk = <T,>(list: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

/** An image part of an embed: a web address shows the image, a placeholder a box naming it, anything else nothing. */
function EmbedImage({
  url,
  alt,
  className,
  placeholderClass,
}: {
  url: string | undefined;
  alt: string;
  className: string | undefined;
  placeholderClass: string | undefined;
}) {
  if (!url) return null;
  const href = safeHref(url);
  if (href) return <img className={className} src={href} alt={alt} loading="lazy" />;
  if (PLACEHOLDER.test(url.trim())) {
    return (
      <div className={[classes.placeholderImage, placeholderClass].filter(Boolean).join(' ')} role="img" aria-label={alt}>
        {url.trim()}
      </div>
    );
  }
  return null;
}

/** A small round icon (author, footer); decorative: the name beside it says whose it is. */
function Icon({ url, className }: { url: string | undefined; className: string | undefined }) {
  const href = url ? safeHref(url) : undefined;
  return href ? <img className={className} src={href} alt="" aria-hidden loading="lazy" /> : null;
}

function EmbedView({ embed, index }: { embed: Embed; index: number }) {
  const { t, i18n } = useTranslation();
  const color = hexOf(embed.color);
  const thumbnail = embed.thumbnail?.url?.trim();
  const hasThumbnail = Boolean(thumbnail && (safeHref(thumbnail) || PLACEHOLDER.test(thumbnail)));
  const titleHref = safeHref(embed.url);
  const authorHref = safeHref(embed.author?.url);
  const rows = fieldRows(embed.fields ?? [], hasThumbnail ? 2 : 3);
  const timestamp = embed.timestamp ? new Date(embed.timestamp) : undefined;
  const validTimestamp = timestamp && !Number.isNaN(timestamp.getTime()) ? timestamp : undefined;
  const footerText = embed.footer?.text?.trim() ? embed.footer.text : undefined;
  return (
    <div
      className={classes.embed}
      style={color ? ({ '--embed-color': color } as CSSProperties) : undefined}
      data-thumbnail={hasThumbnail || undefined}
      role="group"
      aria-label={t('panels.preview.embed', { n: index + 1 })}
    >
      <div className={classes.embedMain}>
        {embed.author?.name?.trim() && (
          <div className={classes.author}>
            <Icon url={embed.author.iconUrl} className={classes.authorIcon} />
            {authorHref ? (
              <a href={authorHref} target="_blank" rel="noopener noreferrer nofollow">
                {embed.author.name}
              </a>
            ) : (
              <span>{embed.author.name}</span>
            )}
          </div>
        )}
        {embed.title?.trim() && (
          <div className={classes.title}>
            {titleHref ? (
              <a href={titleHref} target="_blank" rel="noopener noreferrer nofollow">
                <Markdown text={embed.title} />
              </a>
            ) : (
              <Markdown text={embed.title} />
            )}
          </div>
        )}
        {embed.description?.trim() && (
          <div className={classes.description}>
            <Markdown text={embed.description} />
          </div>
        )}
        {rows.length > 0 && (
          <div className={classes.fields}>
            {rows.map((row, r) => (
              <div
                key={r}
                className={classes.fieldRow}
                style={{ gridTemplateColumns: `repeat(${row.length}, minmax(0, 1fr))` }}
                data-inline-row={row[0]?.inline ? row.length : undefined}
              >
                {row.map((field, f) => (
                  <div key={f} data-field={field.inline ? 'inline' : 'block'}>
                    <div className={classes.fieldName}>
                      <Markdown text={field.name} />
                    </div>
                    <div className={classes.fieldValue}>
                      <Markdown text={field.value} />
                    </div>
                  </div>
                ))}
              </div>
            ))}
          </div>
        )}
      </div>
      <EmbedImage
        url={thumbnail}
        alt={t('panels.preview.thumbnail')}
        className={classes.thumbnail}
        placeholderClass={classes.thumbnailPlaceholder}
      />
      <EmbedImage
        url={embed.image?.url}
        alt={t('panels.preview.image')}
        className={classes.image}
        placeholderClass={classes.imagePlaceholder}
      />
      {(footerText || validTimestamp) && (
        <div className={classes.footer}>
          {footerText && <Icon url={embed.footer?.iconUrl} className={classes.footerIcon} />}
          {footerText && <span>{footerText}</span>}
          {footerText && validTimestamp && <span aria-hidden>•</span>}
          {validTimestamp && (
            <time dateTime={validTimestamp.toISOString()}>
              {new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' }).format(validTimestamp)}
            </time>
          )}
        </div>
      )}
    </div>
  );
}

function Buttons({ buttons }: { buttons: readonly PreviewButton[] }) {
  const { t } = useTranslation();
  return (
    <>
      {chunk(buttons, DISCORD_LIMITS.buttonsPerRow).map((row, r) => (
        <ul key={r} className={classes.row} aria-label={t('panels.preview.buttonRow', { n: r + 1 })}>
          {row.map((button, b) => (
            <li key={b} className={classes.button} data-style={button.style}>
              {button.emoji && <EmojiView emoji={button.emoji} size={18} />}
              {button.text.trim() ? (
                <span>{button.text}</span>
              ) : (
                !button.emoji && <span className={classes.noText}>{t('panels.preview.noText')}</span>
              )}
            </li>
          ))}
        </ul>
      ))}
    </>
  );
}

function Dropdown({ options }: { options: readonly PreviewOption[] }) {
  const { t } = useTranslation();
  return (
    <div className={classes.select}>
      <div className={classes.selectBox}>
        <span>{t('panels.preview.selectPlaceholder')}</span>
        <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden focusable="false">
          <path fill="currentColor" d="M5.3 9.3a1 1 0 0 1 1.4 0L12 14.6l5.3-5.3a1 1 0 1 1 1.4 1.4l-6 6a1 1 0 0 1-1.4 0l-6-6a1 1 0 0 1 0-1.4Z" />
        </svg>
      </div>
      {options.length > 0 && (
        <ul className={classes.menu} aria-label={t('panels.preview.options')}>
          {options.map((option, i) => (
            <li key={i} className={classes.option}>
              {option.emoji && <EmojiView emoji={option.emoji} size={20} />}
              <div>
                <div className={classes.optionLabel}>
                  {option.label.trim() ? option.label : <span className={classes.noText}>{t('panels.preview.noText')}</span>}
                </div>
                {option.description?.trim() && <div className={classes.optionDescription}>{option.description}</div>}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The panel's message as the chat platform shows it, on its dark background: the bot's name and
 * avatar, the text, each embed, and the buttons (rows of five) or the dropdown under them.
 */
export function PanelPreview({ content, embeds, type, buttons, options, bot, mentions, now = new Date() }: PanelPreviewProps) {
  const { t, i18n } = useTranslation();
  const time = new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short' }).format(now);
  const avatar = safeHref(bot.avatarUrl ?? undefined);
  const hasComponents = type === 'BUTTON' ? buttons.length > 0 : options.length > 0;
  const nothing = !content.trim() && embeds.length === 0 && !hasComponents;
  return (
    <MentionContext.Provider value={mentions ?? { channels: [], roles: [] }}>
      <section className={classes.root} aria-label={t('panels.preview.label')}>
        <div className={classes.message}>
          <div className={classes.avatar} aria-hidden>
            {avatar ? <img src={avatar} alt="" /> : bot.name.trim().charAt(0).toUpperCase()}
          </div>
          <div className={classes.body}>
            <div className={classes.header}>
              <span className={classes.botName}>{bot.name}</span>
              <span className={classes.tag}>{t('panels.preview.appTag')}</span>
              <time className={classes.time} dateTime={now.toISOString()}>
                {t('panels.preview.today', { time })}
              </time>
            </div>
            {nothing && <p className={classes.empty}>{t('panels.preview.empty')}</p>}
            {content.trim() && (
              <div className={classes.content}>
                <Markdown text={content} />
              </div>
            )}
            {embeds.map((embed, i) => (
              <EmbedView key={i} embed={embed} index={i} />
            ))}
            {hasComponents && (
              <div className={classes.components}>
                {type === 'BUTTON' ? <Buttons buttons={buttons} /> : <Dropdown options={options} />}
              </div>
            )}
          </div>
        </div>
      </section>
    </MentionContext.Provider>
  );
}
