/**
 * Which error screen a failed discovery call shows. The listing and the
 * menu differ from the design system's generic choice in one way: an HTTP 429 there is the
 * "We'll be back shortly" screen with no retry, and any other failure of the listing is the
 * outage screen with a retry.
 */
import { errorCopyFor, type ErrorCopy } from '@tiffin/design-system';

const BACK_SHORTLY: ErrorCopy = {
  title: "We'll be back shortly",
  message: "Our ovens need some maintenance. We'll be up and serving good food in no time.",
  retry: false,
};

const OUTAGE: ErrorCopy = {
  title: "Something's broken",
  message: 'We are facing some outages on the storefront. Our best minds are working on it.',
  retry: true,
};

export const NO_DELIVERY = {
  title: 'No delivery here',
  message: "We don't have any services here till now. Try changing the location.",
} as const;

export const NOT_FOUND_PAGE = {
  title: 'Page not found',
  message: "Uh-oh! Looks like the page you are trying to access, doesn't exist. Please start afresh.",
} as const;

function isRateLimited(error: unknown): boolean {
  const e = (error ?? {}) as { httpStatus?: number; statusCode?: number };
  return e.httpStatus === 429 || e.statusCode === 429;
}

export function isNotFound(error: unknown): boolean {
  const e = (error ?? {}) as { httpStatus?: number; statusCode?: number };
  return e.httpStatus === 404 || e.statusCode === 404;
}

/** The listing: 429 → back shortly (no retry); anything else → outage (retry). */
export function listingErrorCopy(error: unknown): ErrorCopy {
  return isRateLimited(error) ? BACK_SHORTLY : OUTAGE;
}

/** The menu: 429 → back shortly; otherwise the design system's choice by cause. */
export function menuErrorCopy(error: unknown): ErrorCopy {
  return isRateLimited(error) ? BACK_SHORTLY : errorCopyFor(error);
}

/** The message of a failed call to show in a toast: the server's words when it sent some. */
export function messageOf(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message.trim() ? message : 'Oops! Something went wrong.';
}
