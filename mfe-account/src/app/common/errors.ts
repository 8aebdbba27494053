/** The words a customer sees for a failed call: the edge's statusMessage when it sent one. */
import { isApiError } from '@tiffin/api-client';

export const CONNECTION_MESSAGE = 'Please check your internet connection and try again.';
export const GENERIC_MESSAGE = 'Oops! something went wrong.';

export function errorMessage(error: unknown): string {
  if (!isApiError(error)) return GENERIC_MESSAGE;
  if (error.kind === 'network') return CONNECTION_MESSAGE;
  if (error.kind === 'parse') return GENERIC_MESSAGE;
  return error.message || GENERIC_MESSAGE;
}
