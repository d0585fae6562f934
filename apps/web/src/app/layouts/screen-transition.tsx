import { type ReactNode, useState } from 'react';
import { useMatches } from 'react-router';
import { screenKey } from '@/lib/routes';
import classes from './screen-transition.module.css';

/** Fades a new screen in; a ticket opened from its list is the same screen and does not fade. */
export function ScreenTransition({ children }: { children: ReactNode }) {
  const key = screenKey(useMatches());
  const [fade, setFade] = useState({ key, turn: 'a' as 'a' | 'b' });
  if (fade.key !== key) setFade({ key, turn: fade.turn === 'a' ? 'b' : 'a' });
  return (
    <div className={classes.screen} data-fade={fade.turn} data-screen={key}>
      {children}
    </div>
  );
}
