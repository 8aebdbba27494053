-- Help topics on /support. Reference data owned by the support service.
CREATE TABLE issue_types (
    id TEXT PRIMARY KEY,
    position BIGINT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL
);

INSERT INTO issue_types (id, position, title, description) VALUES
    ('order-issues', 1, 'Help with orders', 'Missing or wrong items, quality, delays and refunds for an order'),
    ('payments-refunds', 2, 'Payments & refunds', 'Failed payments, double charges and refund status'),
    ('tiffin-one', 3, 'Tiffin One FAQs', 'Membership benefits, billing and cancellation'),
    ('account', 4, 'Account & login', 'OTP, phone number, email and saved addresses'),
    ('partner-onboarding', 5, 'Partner onboarding', 'List your restaurant on Tiffin'),
    ('legal', 6, 'Legal, terms & conditions', 'Terms of use, privacy and cancellation policy');
