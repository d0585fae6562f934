import type { Embed, EmbedField } from '@ticket/contracts';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Markdown, safeHref } from './markdown';
import classes from './markdown.module.css';

/** A template placeholder such as `{server.icon}`, which a panel fills in when it is sent. */
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

export interface EmbedLabels {
  /** Names the embed as a group, e.g. "Embed 1". */
  embed: string;
  thumbnail: string;
  image: string;
}

/**
 * One embed as the chat platform shows it: colour bar, author, linked title, description, fields
 * side by side, thumbnail, image, footer and timestamp.
 */
export function EmbedView({ embed, labels }: { embed: Embed; labels: EmbedLabels }) {
  const { i18n } = useTranslation();
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
      aria-label={labels.embed}
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
        alt={labels.thumbnail}
        className={classes.thumbnail}
        placeholderClass={classes.thumbnailPlaceholder}
      />
      <EmbedImage url={embed.image?.url} alt={labels.image} className={classes.image} placeholderClass={classes.imagePlaceholder} />
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
