import { isInternalHref, navigate } from '@tiffin/contract';
import type { AnchorHTMLAttributes, MouseEvent } from 'react';

interface LinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  href: string;
  replace?: boolean;
}

/**
 * An anchor that navigates inside the app (through the shell, see @tiffin/contract `navigate`)
 * for plain left clicks on same-origin links, and behaves as a normal link otherwise (new tab,
 * modifier keys, external URLs), so links always work even without JavaScript routing.
 */
export function Link({ href, replace, onClick, target, ...rest }: LinkProps) {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented) return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if ((target && target !== '_self') || !isInternalHref(href)) return;
    event.preventDefault();
    navigate(href, { replace });
  };
  const rel = target === '_blank' ? (rest.rel ?? 'noopener noreferrer') : rest.rel;
  return <a {...rest} href={href} target={target} rel={rel} onClick={handleClick} />;
}
