import type { Channel, Embed, EmojiRef, PanelButtonStyle, PanelType, Role } from '@ticket/contracts';
import { DISCORD_LIMITS } from '@ticket/contracts/rules';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { EmojiView } from '@/components/emoji-view';
import { EmbedView } from '@/components/markdown/embed-view';
import { Markdown, MentionContext, safeHref, serverMentionNames } from '@/components/markdown/markdown';
import classes from './panel-preview.module.css';

/** What mentions are shown with: the server's channels and roles. */
export interface MentionLookup {
  channels: readonly Channel[];
  roles: readonly Role[];
}

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

export const chunk = <T,>(list: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, i * size + size));

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
  // A panel is sent to the whole server: a user it mentions is not known here.
  const names = useMemo(
    () =>
      serverMentionNames(mentions ?? null, () => t('panels.preview.user'), {
        channel: t('panels.preview.unknownChannel'),
        role: t('panels.preview.unknownRole'),
      }),
    [mentions, t],
  );
  return (
    <MentionContext.Provider value={names}>
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
              <EmbedView
                key={i}
                embed={embed}
                labels={{
                  embed: t('panels.preview.embed', { n: i + 1 }),
                  thumbnail: t('panels.preview.thumbnail'),
                  image: t('panels.preview.image'),
                }}
              />
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
