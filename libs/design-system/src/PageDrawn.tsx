import { emit } from '@tiffin/contract';
import { useLayoutEffect } from 'react';

/**
 * Tells the shell the page is drawn (`page:drawn`), so it removes the first paint the edge put
 * over it. Rendered beside a page's first real screen (never beside its skeleton): it commits with
 * that screen, and a layout effect runs before the screen is painted, so the first paint and the
 * page are never seen together.
 */
export function PageDrawn() {
  useLayoutEffect(() => {
    emit('page:drawn', {});
  }, []);
  return null;
}
