import { useEffect } from 'react';

const BRAND = 'Tiffin';

/**
 * Refines the document title once a page knows more than its route (a restaurant's name). The
 * shell titles every route on navigation; this runs later, when the data has arrived, so it wins
 * and never fights the shell's generic title. `null` leaves the shell's title alone.
 */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    if (title) document.title = `${title} | ${BRAND}`;
  }, [title]);
}
