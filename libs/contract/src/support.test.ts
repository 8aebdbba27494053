import { describe, expect, it } from 'vitest';
import { conversationStatusWords, deskConversationHref, refundToWords, supportConversationHref, supportIssueHref } from './support';

describe('support links', () => {
  it('point at the support and desk routes, an odd id kept inside its own segment', () => {
    expect(supportConversationHref('c1')).toBe('/support/conversations/c1');
    expect(supportIssueHref('super-faq')).toBe('/support/issues/super-faq');
    expect(deskConversationHref('a/b')).toBe('/desk/conversations/a%2Fb');
  });
});

describe('support words', () => {
  it("read a conversation's status and a refund's destination in the customer's words", () => {
    expect(conversationStatusWords('WITH_AGENT')).toBe('With our support team');
    expect(conversationStatusWords('ON_HOLD')).toBe('On hold');
    expect(refundToWords('TIFFIN_MONEY')).toBe('Tiffin Money');
    expect(refundToWords('SOURCE')).toBe('Original payment method');
  });
});
