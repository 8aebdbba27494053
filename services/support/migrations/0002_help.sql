-- Help that acts: what each help topic opens on and its FAQ articles, conversations with their
-- messages, and the actions the rules take through the orders service. Owned by the support
-- service (docs/support.md).

-- What a topic opens on: FAQ (its articles) or ORDER_HELP (the customer's orders).
ALTER TABLE issue_types ADD COLUMN kind TEXT NOT NULL DEFAULT 'FAQ';
UPDATE issue_types SET kind = 'ORDER_HELP' WHERE id = 'order-issues';
-- The storefront links the Tiffin One FAQs as /support/issues/super-faq, beside the general FAQs
-- at /support/issues/faq.
UPDATE issue_types SET id = 'super-faq' WHERE id = 'tiffin-one';
INSERT INTO issue_types (id, position, title, description, kind) VALUES
    ('faq', 7, 'FAQs', 'Ordering, delivery, cancelling, refunds and Tiffin Money', 'FAQ');

-- Questions and answers, in display order per topic.
CREATE TABLE faq_articles (
    id TEXT PRIMARY KEY,
    issue_type_id TEXT NOT NULL REFERENCES issue_types (id),
    position BIGINT NOT NULL,
    question TEXT NOT NULL,
    -- Plain text; paragraphs separated by a blank line.
    answer TEXT NOT NULL
);
CREATE UNIQUE INDEX faq_articles_in_order ON faq_articles (issue_type_id, position);

-- A customer's request for help with one order, and where it stands.
CREATE TABLE conversations (
    -- Random, like an order's id: ids say nothing about how many there are.
    conversation_id BIGINT PRIMARY KEY CHECK (conversation_id > 0),
    -- The customer; every customer read is scoped by it.
    user_id BIGINT NOT NULL,
    order_id BIGINT NOT NULL,
    -- The orders service's OrderIssue name without its prefix: MISSING_ITEMS, WRONG_ITEM,
    -- QUALITY, LATE_DELIVERY, CHARGED_NO_ORDER, CANCEL, OTHER.
    issue TEXT NOT NULL,
    title TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ACTING', 'WITH_AGENT', 'RESOLVED', 'CLOSED')),
    -- 1 when the customer was a Tiffin One member when they asked: the desk serves them first.
    priority BIGINT NOT NULL DEFAULT 0,
    -- The customer as the edge described them, for the desk.
    customer_name TEXT NOT NULL,
    customer_mobile_last4 TEXT NOT NULL,
    customer_member BIGINT NOT NULL DEFAULT 0,
    -- The customer's key for the request that opened it, and what that request asked (SHA-256).
    idempotency_key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    -- What help did: '' until it acted or decided not to; REFUND, CREDIT, CANCELLED or NONE.
    outcome_kind TEXT NOT NULL DEFAULT '',
    -- Everything the conversation moved, in paise.
    outcome_amount BIGINT NOT NULL DEFAULT 0,
    -- SOURCE or TIFFIN_MONEY: where the latest money went ('' when none moved).
    outcome_refund_to TEXT NOT NULL DEFAULT '',
    outcome_text TEXT NOT NULL DEFAULT '',
    -- Unix seconds.
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
-- The same request again answers the conversation it opened.
CREATE UNIQUE INDEX conversations_by_key ON conversations (user_id, idempotency_key);
-- A rule acts at most once per order and issue: one conversation each.
CREATE UNIQUE INDEX conversations_one_per_issue ON conversations (user_id, order_id, issue);
-- ListConversations: a customer's, newest first.
CREATE INDEX conversations_by_user ON conversations (user_id, created_at);
-- The desk's queue: waiting for an agent, members first, then the longest waiting.
CREATE INDEX conversations_queue ON conversations (priority, updated_at) WHERE status = 'WITH_AGENT';

CREATE TABLE conversation_messages (
    conversation_id BIGINT NOT NULL REFERENCES conversations (conversation_id),
    -- 1, 2, 3… per conversation: the message's id.
    position BIGINT NOT NULL,
    author TEXT NOT NULL CHECK (author IN ('CUSTOMER', 'TIFFIN', 'AGENT')),
    author_name TEXT NOT NULL,
    text TEXT NOT NULL,
    -- Unix seconds.
    sent_at BIGINT NOT NULL,
    PRIMARY KEY (conversation_id, position)
);

-- What the rules (and agents) do through the orders service: one row per action, written with
-- the conversation (or the agent's request) before orders is asked. Orders knows it by the key
-- 'support-<conversation>-<position>', so asking again (a retry, recovery) acts once.
CREATE TABLE support_actions (
    conversation_id BIGINT NOT NULL REFERENCES conversations (conversation_id),
    -- 1, 2, 3… per conversation.
    position BIGINT NOT NULL,
    -- REFUND_ITEMS, LATE_CREDIT, SETTLE_CHARGED, CANCEL or AGENT_REFUND.
    kind TEXT NOT NULL,
    -- The desk's idempotency key for an agent's refund; '' for a rule's action.
    agent_key TEXT NOT NULL DEFAULT '',
    -- What to ask orders, as JSON (lines, where the refund goes, the amount expected).
    request TEXT NOT NULL,
    -- PENDING until orders confirmed it, DONE, or FAILED when orders refused it for good.
    state TEXT NOT NULL CHECK (state IN ('PENDING', 'DONE', 'FAILED')),
    -- 1 once the conversation said the money is on its way (said once).
    announced BIGINT NOT NULL DEFAULT 0,
    -- Unix seconds.
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (conversation_id, position)
);
-- An agent's refund is one action per desk key.
CREATE UNIQUE INDEX support_actions_by_agent_key ON support_actions (conversation_id, agent_key)
    WHERE agent_key <> '';
-- Recovery: actions orders has not finished.
CREATE INDEX support_actions_pending ON support_actions (updated_at) WHERE state = 'PENDING';

INSERT INTO faq_articles (id, issue_type_id, position, question, answer) VALUES
    ('faq-track-order', 'faq', 1, 'How do I track my order?',
     'Open Orders in your account, or the link on the order confirmation page. The tracking page shows where your order is now: received, confirmed by the restaurant, being prepared, picked up and arriving. Once a rider is assigned you can follow them on the map and see how many minutes are left.

The page keeps itself up to date, so there is no need to reload it.'),
    ('faq-cancel-order', 'faq', 2, 'Can I cancel my order?',
     'Yes, until the rider picks it up. Cancelling is free until the restaurant accepts your order. After the restaurant has accepted it and started on your food, half of the order''s total is kept as a cancellation fee and the rest is refunded. Once the rider has picked it up it can no longer be cancelled.

Cancel from the order''s details or tracking page, or choose Help and then Cancel my order.'),
    ('faq-cancellation-fee-cash', 'faq', 3, 'I cancelled a cash on delivery order. Why is there a cancellation fee on my next order?',
     'When a cash on delivery order is cancelled after the restaurant accepted it, nothing was paid that the fee could be kept from. The fee is therefore added to your next order''s bill as a Cancellation Fee line, and the cart tells you why. If that next order is cancelled too, the fee is owed again rather than charged twice.'),
    ('faq-refund-time', 'faq', 4, 'When will I get my refund?',
     'A refund to Tiffin Money is in your balance at once. A refund to your card, UPI account, wallet or bank goes back the way you paid; banks usually show it within 5 to 7 working days.

You can see every refund and credit in Tiffin Money, in your account.'),
    ('faq-tiffin-money', 'faq', 5, 'What is Tiffin Money?',
     'Tiffin Money is a balance in your Tiffin account. Refunds you choose to take as Tiffin Money, and credits such as the one for a late delivery, land there immediately. You can pay for an order with it, alone or together with another way to pay when it does not cover the whole bill.'),
    ('faq-missing-items', 'faq', 6, 'Something was missing or wrong in my order. What do I do?',
     'Open the order and choose Help, then Items are missing from my order or I received a wrong item, and pick the items and how many of each. We refund what you paid for them straight away: to the way you paid or to Tiffin Money, as you choose. A cash on delivery order is refunded to Tiffin Money.

Help on an order is open for 48 hours after it was delivered.'),
    ('faq-late-delivery', 'faq', 7, 'My order arrived late. Do I get anything?',
     'Yes. If your order reached you 10 to 19 minutes after the time we promised when it was confirmed, we add ₹25 to your Tiffin Money; 20 to 29 minutes late, ₹50; 30 minutes or more, ₹100. Choose Help on the order and then My order arrived late. Each order is credited once.'),
    ('faq-delivery-fee', 'faq', 8, 'How is the delivery fee worked out?',
     'Delivery costs ₹25 for the first 3 km from the restaurant, and ₹8 more for every kilometre or part of one after that. Delivery is free when your items come to ₹499 or more. The bill shows the distance beside the fee.'),
    ('faq-bill-charges', 'faq', 9, 'What are the other charges on my bill?',
     'Packaging is ₹5 an item, at most ₹50 an order, charged by the restaurant. The platform fee is ₹5 an order and helps us run Tiffin. When it rains or at the busiest hours a surge fee may apply, and the bill says why. GST is 5% on food and packaging and 18% on the delivery, platform and surge fees. Tap any line of the bill to see how it was worked out.'),
    ('faq-pay-cash', 'faq', 10, 'Can I pay in cash?',
     'Yes, for food orders up to ₹5,000: choose Cash on delivery at checkout and pay the rider. A Tiffin One membership cannot be paid in cash, as nobody comes to the door to collect it.'),
    ('super-what-is', 'super-faq', 1, 'What is Tiffin One?',
     'Tiffin One is our membership. Members get free delivery on orders above ₹199 from restaurants within 7 km, extra discounts of up to 30% at partner restaurants, no surge fee even in the rain or at peak hours, and, on the 3 and 12 month plans, priority help from our support team.'),
    ('super-plans', 'super-faq', 2, 'How much does Tiffin One cost?',
     'There are three plans: 1 month for ₹99, 3 months for ₹199 and 12 months for ₹599. Prices include GST. See them all on the Tiffin One page.'),
    ('super-free-delivery', 'super-faq', 3, 'When is delivery free for members?',
     'When your items come to ₹199 or more and the restaurant is within 7 km of your delivery address. The bill shows it as Tiffin One Free Delivery. Below ₹199, or further away, the usual delivery fee applies.'),
    ('super-partner-discount', 'super-faq', 4, 'How do partner discounts work?',
     'Restaurants that partner with Tiffin One take an extra percentage off your item total for members, up to 30%. It is applied in the cart as Tiffin One Partner Discount, together with any coupon you use, and never takes more than the food costs.'),
    ('super-savings', 'super-faq', 5, 'Where can I see what I have saved?',
     'Your account''s Tiffin One page shows your plan, when it ends and how much you have saved on confirmed orders since your membership began. The cart also tells you what membership saved on each order.'),
    ('super-buy', 'super-faq', 6, 'How do I join?',
     'Choose a plan on the Tiffin One page and pay for it like any order, or add the suggested plan to your cart at checkout and pay for both together. Your membership starts as soon as the payment is confirmed, so that very order can already get the benefits.'),
    ('super-extend', 'super-faq', 7, 'Can I buy another plan while I am a member?',
     'Yes. Buying the same plan or a longer one adds it after your current membership ends, so no day is lost. A shorter plan cannot be added to a longer one.'),
    ('super-cancel', 'super-faq', 8, 'How do I cancel Tiffin One?',
     'Open Tiffin One in your account and cancel. Your membership stops renewing and its benefits last until the end of the period you paid for. Membership fees are not refunded.'),
    ('super-cities', 'super-faq', 9, 'Is Tiffin One available in my city?',
     'Tiffin One is sold city by city: today in Ahmedabad, Bangalore, Chennai, Delhi, Gurgaon, Hyderabad, Kolkata, Mumbai and Pune. Elsewhere, choose Notify me on the plan and we will tell you when it arrives in your city.'),
    ('super-priority-help', 'super-faq', 10, 'What does priority help mean?',
     'When a member''s request needs a person, it goes to the front of our support team''s queue. The rules that refund missing items or credit a late delivery act at once for everyone.'),
    ('payments-failed', 'payments-refunds', 1, 'My payment failed but money left my account. What now?',
     'If the bank took the money but your order was not placed, choose Help on that order and then I was charged but my order was not placed. We look for every such payment and refund it in full to where it came from; if we find none, our support team will look into it with you.'),
    ('payments-methods', 'payments-refunds', 2, 'Which ways to pay do you take?',
     'Cards, UPI, netbanking, wallets you link to Tiffin, pay later, Tiffin Money and cash on delivery. Some banks, cards and wallets have offers, shown beside each way to pay at checkout.'),
    ('payments-refund-where', 'payments-refunds', 3, 'Where does my refund go?',
     'You choose: back to the way you paid, or to Tiffin Money, where it is available at once. Money paid in cash can only be refunded to Tiffin Money.'),
    ('account-otp', 'account', 1, 'I did not get the OTP.',
     'Check that the mobile number is right, and wait a minute before asking for a new code. If you ask for too many codes or type a wrong one too often, signing in is paused for a while; the message tells you when you can try again.'),
    ('account-addresses', 'account', 2, 'How do I change my saved addresses?',
     'Open Addresses in your account to add, edit or delete one. At checkout you can also add a new address; the map helps you place the pin where the rider should come.'),
    ('account-mobile', 'account', 3, 'Can I change my mobile number?',
     'Yes, from your profile. We send an OTP to the new number to check it is yours before it replaces the old one.'),
    ('partner-join', 'partner-onboarding', 1, 'How do I list my restaurant on Tiffin?',
     'Write to partners@tiffin.example with your restaurant''s name, address and FSSAI licence number. Our partner team will call you to set up your menu, your hours and your payouts.'),
    ('partner-one', 'partner-onboarding', 2, 'Can my restaurant become a Tiffin One partner?',
     'Yes. Partner restaurants offer members an extra discount of their choice, up to 30%, and are shown to members first. Ask our partner team when you join, or at any time after.'),
    ('legal-terms', 'legal', 1, 'Where are the terms of use?',
     'The terms of use, privacy policy and cancellation and refund policy are linked at the bottom of every page. By placing an order you agree to the terms in force that day.'),
    ('legal-data', 'legal', 2, 'What do you do with my data?',
     'We use your details to take and deliver your orders, to keep your account safe and to help you when something goes wrong. We never store your card number: the payment gateway keeps it, and we see only its last four digits.');
