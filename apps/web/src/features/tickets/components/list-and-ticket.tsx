import { Fragment, type ReactNode, useEffect, useLayoutEffect, useRef, useState } from 'react';

interface ListAndTicketProps {
  /** The ticket of the child route, if one is open. */
  ticketId: string | undefined;
  list: ReactNode;
  ticket: ReactNode;
}

/**
 * A list and, on its child route, one of its tickets (SPEC §2). The list stays mounted, hidden,
 * while a ticket is open, so coming back finds it as it was: its data, its inputs and its scroll
 * position. A ticket opens at its top. The list is only built once it has been shown: opening a
 * ticket's link directly loads the ticket alone.
 */
export function ListAndTicket({ ticketId, list, ticket }: ListAndTicketProps) {
  const [listShown, setListShown] = useState(!ticketId);
  if (!ticketId && !listShown) setListShown(true);

  const listScroll = useRef(0);
  const showingTicket = useRef(Boolean(ticketId));
  const first = useRef(true);

  useEffect(() => {
    // Hiding the list shortens the page, and the browser then scrolls: only the list's own scrolling counts.
    const save = () => {
      if (!showingTicket.current) listScroll.current = window.scrollY;
    };
    window.addEventListener('scroll', save, { passive: true });
    return () => window.removeEventListener('scroll', save);
  }, []);

  useLayoutEffect(() => {
    showingTicket.current = Boolean(ticketId);
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo(0, ticketId ? 0 : listScroll.current);
  }, [ticketId]);

  return (
    <>
      <div hidden={Boolean(ticketId)} data-ticket-list>
        {listShown && list}
      </div>
      {/* Another ticket is another view: nothing of the previous one (an open history, say) stays. */}
      {ticketId && <Fragment key={ticketId}>{ticket}</Fragment>}
    </>
  );
}
