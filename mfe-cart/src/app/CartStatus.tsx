/**
 * What the cart shows instead of itself when it could not be read (spec §8): the 429 screen
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

/** Spec §8 cart messages for the success-family codes that still return a cart. */
export function CartNotice({ statusCode }: { statusCode: number }) {
  if (statusCode === 8) {
    return (
      <p className="cart-notice" role="status">
        <strong>Item(s) unavailable</strong> Some items are no longer available. Try alternatives or remove unavailable items.
      </p>
    );
  }
  if (statusCode === 9) {
    return (
      <p className="cart-notice" role="status">
        <strong>Restaurant is not serving at your location currently</strong>
      </p>
    );
  }
  return null;
}
