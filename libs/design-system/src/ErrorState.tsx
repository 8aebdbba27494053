import type { ReactNode } from 'react';
import { Button } from './Button';

interface ErrorStateProps {
  title: string;
  message: string;
  actionLabel?: string;
  onAction?: () => void;
  /** `alert` for failures the user should hear about at once; `region` for empty pages. */
  role?: 'alert' | 'region';
  children?: ReactNode;
}

/** A full-width message with an optional action: error pages, empty states, failed sections. */
export function ErrorState({ title, message, actionLabel, onAction, role = 'alert', children }: ErrorStateProps) {
  return (
    <section className="ds-error-state" role={role} aria-label={role === 'region' ? title : undefined}>
      <h2 className="ds-error-state__title">{title}</h2>
      <p className="ds-error-state__message">{message}</p>
      {actionLabel && onAction ? <Button onClick={onAction}>{actionLabel}</Button> : null}
      {children}
    </section>
  );
}

/** The copy for failed calls, by cause. */
export interface ErrorCopy {
  title: string;
  message: string;
  /** 429 screens offer no retry. */
  retry: boolean;
}

/**
 * Picks the spec's error copy for an error from @tiffin/api-client (read by shape, so this package
 * does not depend on the client).
 */
export function errorCopyFor(error: unknown): ErrorCopy {
  const e = (error ?? {}) as { kind?: string; httpStatus?: number; statusCode?: number };
  if (e.kind === 'network') {
    return { title: 'Connection Error', message: 'Please check your internet connection and try again.', retry: true };
  }
  if (e.httpStatus === 429 || e.statusCode === 429) {
    return {
      title: "We'll be back shortly",
      message: "Our ovens need some maintenance. We'll be up and serving good food in no time.",
      retry: false,
    };
  }
  if (e.httpStatus === 503 || e.statusCode === 777) {
    return {
      title: "Something's broken",
      message: 'We are facing some outages on the storefront. Our best minds are working on it.',
      retry: true,
    };
  }
  if (e.httpStatus === 404 || e.statusCode === 404) {
    return {
      title: "There's nothing here",
      message: 'We cannot find what you are looking for. Please check your search query.',
      retry: false,
    };
  }
  return { title: 'Uh-oh!', message: 'Sorry! This should not have happened. Please retry.', retry: true };
}
