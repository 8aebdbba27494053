/**
 * The desk's rules apart from its pages, so each is tested alone: the queue's order, the refund an
 * agent types (rupees) as the integer paise the edge takes, and what the edge's refusal of a desk
 * page means.
 */
import { isApiError } from '@tiffin/api-client';
import type { DeskQueueEntry } from '@tiffin/contract';
import { parseRupees } from '@tiffin/design-system';

/**
 * Tiffin One members' conversations first, then the one waiting longest: the order the edge sends,
 * kept whatever order the entries arrive in.
 */
export function queueOrder(entries: readonly DeskQueueEntry[]): DeskQueueEntry[] {
  return [...entries].sort((a, b) => Number(b.priority) - Number(a.priority) || a.updatedAt - b.updatedAt);
}

export const REFUND_AMOUNT_MESSAGE = 'Enter the amount in rupees, like 120 or 120.50.';

/** The refund typed in rupees as paise above 0, or what is wrong with it. The edge checks the limits. */
export function refundAmount(typed: string): { paise: number } | { problem: string } {
  const paise = parseRupees(typed);
  return paise !== null && paise > 0 ? { paise } : { problem: REFUND_AMOUNT_MESSAGE };
}

/**
 * The edge answers a desk page asked by a session without the agent role 403: the desk is not
 * theirs. Read on the desk's GETs only: a POST's 403 may be a stale CSRF token instead.
 */
export function isNotAnAgent(error: unknown): boolean {
  return isApiError(error) && error.httpStatus === 403;
}

export const NOT_AN_AGENT_MESSAGE = "This page is for Tiffin's support team.";
