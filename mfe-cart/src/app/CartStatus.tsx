/**
 * What the cart shows instead of itself when it could not be read: the 429 screen
 * ("We'll be back shortly", no retry), the outage screen ("Something's broken"), the connection
 * error, or the generic error page, all with the spec's copy from the design system.
 */
import { fetchCart } from '@tiffin/cart-store';
import { ErrorState, errorCopyFor } from '@tiffin/design-system';

/** `statusCode` as the cart store keeps it: an HTTP status, an envelope code, or -1 (no answer). */
export function CartFailure({ statusCode }: { statusCode: number }) {
  const copy = errorCopyFor(statusCode === -1 ? { kind: 'network' } : { httpStatus: statusCode, statusCode });
  return (
    <ErrorState
      title={copy.title}
      message={copy.message}
      actionLabel={copy.retry ? 'Retry' : undefined}
      onAction={copy.retry ? () => void fetchCart({ force: true }).catch(() => {}) : undefined}
    />
  );
}

/** The cart's messages for the states reported with the cart (docs/edge-api.md status table). */
const NOTICES: Record<number, { title: string; detail?: string }> = {
  6: { title: 'Restaurant is currently closed', detail: 'Try a similar restaurant nearby.' },
  8: { title: 'Item(s) unavailable', detail: 'Some items are no longer available. Try alternatives or remove unavailable items.' },
  9: { title: 'Restaurant is not serving at your location currently', detail: 'Choose another delivery address.' },
  10: { title: 'Sorry! This address is not available. Please select another address' },
  41: { title: 'Insufficient cart value' },
};

export function CartNotice({ statusCode }: { statusCode: number }) {
  const notice = NOTICES[statusCode];
  if (!notice) return null;
  return (
    <p className="cart-notice" role="status" data-status-code={statusCode}>
      <strong>{notice.title}</strong>
      {notice.detail ? ` ${notice.detail}` : null}
    </p>
  );
}

/** The states that stop a checkout (the cart is still shown). */
export function blocksCheckout(statusCode: number): boolean {
  return statusCode === 6 || statusCode === 9 || statusCode === 10 || statusCode === 41;
}
