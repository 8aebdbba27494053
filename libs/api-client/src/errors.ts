/** The one error type callers of the edge see. */
import { messageOf, statusOf } from './envelope';

type ApiErrorKind =
  /** The edge answered with a non-OK HTTP status; `response` and `reply` are attached. */
  | 'http'
  /** HTTP OK, but the envelope's status code is not a success for the call family. */
  | 'status'
  /** No answer: offline, failed to fetch, connection lost, timeout or abort, after retries. */
  | 'network'
  /** The reply was not JSON. */
  | 'parse';

const GENERIC_ERROR_MESSAGE = 'Oops! Something went wrong.';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  /** The envelope's status (statusCode or failure.errorCode), -1 when there is none. */
  readonly statusCode: number;
  /** HTTP status when the edge answered. */
  readonly httpStatus: number | undefined;
  /** The parsed reply (usually the envelope), when there was one. */
  readonly reply: unknown;
  readonly response: Response | undefined;

  constructor(init: {
    kind: ApiErrorKind;
    message?: string;
    reply?: unknown;
    response?: Response;
    cause?: unknown;
  }) {
    super(init.message ?? messageOf(init.reply) ?? GENERIC_ERROR_MESSAGE, { cause: init.cause });
    this.kind = init.kind;
    this.reply = init.reply;
    this.response = init.response;
    this.httpStatus = init.response?.status;
    this.statusCode = statusOf(init.reply);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The edge wants a signed-in customer (HTTP 401, or statusCode 999 in the envelope). */
export function isSignInRequired(error: unknown): boolean {
  return isApiError(error) && (error.httpStatus === 401 || error.statusCode === 999);
}

export const CONNECTION_MESSAGE = 'Please check your internet connection and try again.';
export const GENERIC_MESSAGE = 'Oops! something went wrong.';

/** The words a customer sees for a failed call: the edge's statusMessage when it sent one. */
export function customerMessage(error: unknown): string {
  if (!isApiError(error)) return GENERIC_MESSAGE;
  if (error.kind === 'network') return CONNECTION_MESSAGE;
  if (error.kind === 'parse') return GENERIC_MESSAGE;
  return error.message || GENERIC_MESSAGE;
}
