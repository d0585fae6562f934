/**
 * The Dashboard's server list as it was last drawn, kept in the browser so that the next visit can
 * show it before the app's scripts have arrived (the inline script of index.html draws it, as plain links). It is
 * read off the page as drawn, so the links, their texts and who sees which are the app's own, in one
 * place; it belongs to the signed-in user and goes with the session.
 */
export const INSTANT_DASHBOARD_KEY = 'instant-dashboard';

export interface InstantLink {
  href: string;
  text: string;
  label: string | null;
}

export interface InstantDashboard {
  userId: string;
  lang: string;
  dir: string;
  /** The page's name in the header, and its heading. */
  brand: string;
  title: string;
  sections: { title: string; servers: { id: string; name: string; links: InstantLink[] }[] }[];
}

const text = (element: Element | null) => element?.textContent?.trim() ?? '';

/** Reads the drawn list under `list` (its sections, each server card and its links) and keeps it. */
export function saveInstantDashboard(userId: string, list: HTMLElement): void {
  const snapshot: InstantDashboard = {
    userId,
    lang: document.documentElement.lang,
    dir: document.documentElement.dir,
    brand: document.querySelector('header a[href="/"]')?.getAttribute('aria-label') ?? document.title,
    title: text(document.querySelector('h1')),
    sections: [...list.querySelectorAll('section')].map((section) => ({
      title: text(section.querySelector('h2')),
      servers: [...section.querySelectorAll<HTMLElement>('[data-server-id]')].map((card) => ({
        id: card.dataset.serverId ?? '',
        name: text(card.querySelector('h3')),
        links: [...card.querySelectorAll('a')].map((link) => ({
          href: link.getAttribute('href') ?? '',
          text: text(link),
          label: link.getAttribute('aria-label'),
        })),
      })),
    })),
  };
  try {
    localStorage.setItem(INSTANT_DASHBOARD_KEY, JSON.stringify(snapshot));
  } catch {
    // Storage full or refused: the next visit simply waits for the app.
  }
}

export function clearInstantDashboard(): void {
  try {
    localStorage.removeItem(INSTANT_DASHBOARD_KEY);
  } catch {
    // Nothing to clear when storage is refused.
  }
}
