/**
 * What the support pages (mfe-account) and the agents' desk (mfe-desk) agree on: the links to a
 * conversation and an issue, and the words for a conversation's status and for where a refund
 * goes. Built here, like an order's links, so a route can move in one place.
 */
import type { ConversationStatus, SupportRefundTo } from './support-types';

/** The customer's page of one conversation (the `support` route). */
export function supportConversationHref(conversationId: string): string {
  return `/support/conversations/${encodeURIComponent(conversationId)}`;
}

/** An issue's page with its FAQ articles (`faq` and `super-faq` are the general and Tiffin One FAQs). */
export function supportIssueHref(issueId: string): string {
  return `/support/issues/${encodeURIComponent(issueId)}`;
}

/** The desk's page of one conversation (the `desk` route). */
export function deskConversationHref(conversationId: string): string {
  return `/desk/conversations/${encodeURIComponent(conversationId)}`;
}

const STATUS_WORDS: Record<ConversationStatus, string> = {
  ACTING: 'We are working on it',
  WITH_AGENT: 'With our support team',
  RESOLVED: 'Resolved',
  CLOSED: 'Closed',
};

/** `WITH_AGENT` → `With our support team`; a status not known here reads as its own words. */
export function conversationStatusWords(status: string): string {
  const known = STATUS_WORDS[status as ConversationStatus];
  if (known) return known;
  const words = status.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Where a refund goes, as a choice reads: `Tiffin Money` or `Original payment method`. */
export function refundToWords(refundTo: SupportRefundTo | string): string {
  return refundTo === 'TIFFIN_MONEY' ? 'Tiffin Money' : 'Original payment method';
}
