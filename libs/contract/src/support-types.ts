/**
 * Support (docs/support.md): the issues and their FAQs, help on an order, the customer's
 * conversations, and the agents' desk. Aliases of the shapes the edge's contract generates
 * (`edge-api.gen.ts`), with the strings the edge documents as a closed set narrowed to it (an
 * issue's code, a conversation's status, a message's author, an outcome's kind, where a refund
 * goes). Money is integer paise; times are unix seconds.
 */
import type { components } from './edge-api.gen';

type Schemas = components['schemas'];

/** What went wrong with an order, as the rules know it. */
export type OrderIssueCode = 'MISSING_ITEMS' | 'WRONG_ITEM' | 'QUALITY' | 'LATE_DELIVERY' | 'CHARGED_NO_ORDER' | 'CANCEL' | 'OTHER';

/** Where a refund goes: back to how the order was paid, or to Tiffin Money. */
export type SupportRefundTo = 'SOURCE' | 'TIFFIN_MONEY';

export type ConversationStatus = 'ACTING' | 'WITH_AGENT' | 'RESOLVED' | 'CLOSED';

export type ConversationAuthor = 'CUSTOMER' | 'TIFFIN' | 'AGENT';

export type OutcomeKind = 'REFUND' | 'CREDIT' | 'CANCELLED' | 'NONE';

/** An FAQ's question and its written answer (plain text, paragraphs apart by a blank line). */
export type FaqArticle = Schemas['FaqArticle'];

/** `GET /api/support/issues/{id}`: `faq` and `super-faq` are the general and the Tiffin One FAQs. */
export type SupportIssueResponse = Omit<Schemas['SupportIssueDetails'], 'issue'> & {
  issue: Omit<Schemas['SupportIssue'], 'kind'> & { kind: 'FAQ' | 'ORDER_HELP' };
};

/** One thing that can have gone wrong with the order; `reason` (empty when available) says why not now. */
export type OrderHelpIssue = Omit<Schemas['OrderHelpIssue'], 'code'> & { code: OrderIssueCode };

/** A line of the order, with how many of it can still be refunded and what one unit gives back. */
export type OrderHelpItem = Schemas['OrderHelpItem'];

/** `GET /api/support/order-help/{orderId}`: what help the order can have now. */
export type OrderHelp = Omit<Schemas['OrderHelp'], 'issues' | 'refundTo'> & {
  issues: OrderHelpIssue[];
  /** The refund destinations the customer may choose (a cash order's is Tiffin Money alone). */
  refundTo: SupportRefundTo[];
};

/** `POST /api/support/order-help` (without `_csrf`, which the api-client adds). */
export type OrderHelpRequest = Omit<Schemas['StartOrderHelpInput'], 'issue' | 'refundTo' | 'orderId'> & {
  orderId: string;
  issue: OrderIssueCode;
  refundTo?: SupportRefundTo;
};

export type ConversationOutcome = Omit<Schemas['SupportOutcome'], 'kind' | 'refundTo'> & {
  kind: OutcomeKind;
  /** Empty when nothing moved. */
  refundTo: SupportRefundTo | '';
};

export type ConversationMessage = Omit<Schemas['SupportMessage'], 'author'> & { author: ConversationAuthor };

export type Conversation = Omit<Schemas['SupportConversation'], 'status' | 'outcome' | 'messages'> & {
  status: ConversationStatus;
  outcome?: ConversationOutcome | null;
  messages: ConversationMessage[];
};

/** `POST support/order-help`, `support/conversations/{id}` and its messages, and the desk's actions. */
export type ConversationReply = { conversation: Conversation };

/** `GET /api/support/conversations`, newest first. */
export type ConversationsResponse = Omit<Schemas['SupportConversations'], 'conversations'> & { conversations: Conversation[] };

// ── The desk (agents only; a customer's session is answered 403) ──

/** One open conversation of `GET /api/desk/queue`. */
export type DeskQueueEntry = Omit<Schemas['DeskQueueEntry'], 'status'> & { status: ConversationStatus };

export type DeskQueueResponse = { conversations: DeskQueueEntry[] };

/** The order beside a conversation at the desk, and what an agent may still refund of it. */
export type DeskOrder = Schemas['DeskOrder'];

/** `GET /api/desk/conversations/{id}`: the conversation with its customer, and its order beside it. */
export type DeskConversationResponse = Omit<Schemas['DeskConversation'], 'conversation'> & { conversation: Conversation };

/** `POST /api/desk/conversations/{id}/refund` (without `_csrf`). */
export type DeskRefundRequest = Omit<Schemas['DeskRefundInput'], 'refundTo'> & { refundTo: SupportRefundTo };
