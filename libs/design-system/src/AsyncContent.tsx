import type { ReactNode } from 'react';
import { ErrorState, errorCopyFor } from './ErrorState';
import { Skeleton } from './Skeleton';
import type { AsyncState } from './useAsync';

/**
 * The three faces of loaded content: skeleton while loading, the spec's error copy (with Retry
 * when the spec allows one) on failure, the content on success.
 */
export function AsyncContent<T>({
  state,
  children,
  skeleton,
}: {
  state: AsyncState<T> & { reload: () => void };
  children: (data: T) => ReactNode;
  skeleton?: ReactNode;
}) {
  if (state.status === 'loading') {
    return <>{skeleton ?? <Skeleton height={120} />}</>;
  }
  if (state.status === 'error') {
    const copy = errorCopyFor(state.error);
    return <ErrorState title={copy.title} message={copy.message} actionLabel={copy.retry ? 'Retry' : undefined} onAction={copy.retry ? state.reload : undefined} />;
  }
  return <>{children(state.data)}</>;
}
