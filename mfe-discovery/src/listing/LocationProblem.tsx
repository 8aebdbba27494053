/**
 * The listing's screens for a location it cannot serve: "No delivery here"
 * when the listing says NON_SERVICEABLE, and "Location not found" when the edge cannot place the
 * stored location (404 "Location not found", or 400 "Invalid user location." for a point that is
 * not one). Both read "We don't have any services here till now. Try changing the location." and
 * offer exactly that: "Change location" opens the location sidebar (`location:open`, mounted by
 * the shell), where the customer searches, uses the device or picks a saved address. The stored
 * location is left as it is until they choose another one.
 */
import { emit } from '@tiffin/contract';
import { Button, ErrorState } from '@tiffin/design-system';
import { NO_DELIVERY } from '../common/errors';

export const LOCATION_NOT_FOUND = { title: 'Location not found', message: NO_DELIVERY.message } as const;

/** The words the edge answers with (docs/edge-api.md), so the screens can tell them apart. */
const NOT_FOUND_MESSAGE = 'Location not found';
const INVALID_LOCATION_MESSAGE = 'Invalid user location.';

/** A failed listing call that is about the location itself, not the listing. */
export function isLocationNotFound(error: unknown): boolean {
  const e = (error ?? {}) as { httpStatus?: number; statusCode?: number; message?: unknown };
  if (e.statusCode === 404 || e.httpStatus === 404) return e.message === NOT_FOUND_MESSAGE;
  if (e.statusCode === 1 || e.httpStatus === 400) return e.message === INVALID_LOCATION_MESSAGE;
  return false;
}

export function LocationProblem({ kind }: { kind: 'no-delivery' | 'not-found' }) {
  const copy = kind === 'no-delivery' ? NO_DELIVERY : LOCATION_NOT_FOUND;
  return (
    <ErrorState role="region" title={copy.title} message={copy.message}>
      <Button variant="secondary" onClick={() => emit('location:open', {})}>
        Change location
      </Button>
    </ErrorState>
  );
}
