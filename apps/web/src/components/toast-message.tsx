import type { CSSProperties, ReactNode } from 'react';
import classes from './toast-message.module.css';

/** A toast's text with the bar that counts down to its closing. */
export function ToastMessage({ children, duration }: { children: ReactNode; duration: number }) {
  return (
    <>
      {children}
      <span
        className={classes.progress}
        data-toast-progress
        data-duration={duration}
        aria-hidden
        style={{ '--toast-duration': `${duration}ms` } as CSSProperties}
      />
    </>
  );
}
