import type { MouseEvent } from 'react';
import classes from './skip-link.module.css';

/** The first thing a keyboard reaches: straight past the header and menu to the screen itself. */
export function SkipLink({ targetId, children }: { targetId: string; children: string }) {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    // Focus rather than follow the hash, which the router would take for a navigation.
    event.preventDefault();
    // Focusing the target also brings it into view.
    document.getElementById(targetId)?.focus();
  };
  return (
    <a className={classes.skipLink} href={`#${targetId}`} onClick={skip}>
      {children}
    </a>
  );
}
