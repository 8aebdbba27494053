/** Users, addresses and helpers shaped like docs/edge-api.md "Accounts", for this app's tests. */
import { fixtures } from '@tiffin/api-client/testing';
import { on, type Address, type SuperPlan, type SuperStatus, type SuperSubscription, type User } from '@tiffin/contract';

export const asha: User = {
  customer_id: '17',
  mobile: '9876543210',
  name: 'Asha Rao',
  email: 'asha@example.com',
  pendingEmail: '',
  emailVerified: true,
  optional_map: {},
  preferences: { sms: { orders: true, recommendations: true, reminders: false } },
};

export function address(id: string, annotation: Address['annotation'], overrides: Partial<Address> = {}): Address {
  return {
    id,
    annotation,
    address: `Flat ${id}, 12 1st Cross, Koramangala`,
    area: 'Koramangala',
    flat_no: `Flat ${id}`,
    landmark: '',
    lat: 12.9352,
    lng: 77.6245,
    mobile: '9876543210',
    instructions: '',
    city: 'bangalore',
    delivery_valid: 1,
    ...overrides,
  };
}

/** The JSON body a fake-edge handler received. */
export function bodyOf(init: RequestInit | undefined): Record<string, unknown> {
  return JSON.parse((init?.body as string) ?? '{}') as Record<string, unknown>;
}

/** Claims every `navigate()` like the shell does and records the targets. */
export function captureNavigation() {
  const targets: string[] = [];
  const off = on('route:navigate', (detail, event) => {
    targets.push(detail.to);
    event.preventDefault();
  });
  return { targets, off };
}

export function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]!.trim();
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
}

/** The Payments tab's UPI, wallet and pay-later calls answering "none yet", for tests of its other sections. */
export const noPaymentAccounts = {
  '/api/profile/saved-vpas': { vpas: [] },
  '/api/payment/get-methods': { payment_groups: [] },
  '/api/profile/linked-wallets': { wallets: [] },
  '/api/payment/paylater/check-linked': fixtures.payLater(),
};

/** A Tiffin One plan as the plan-listing widget sends it. */
export function superPlan(overrides: Partial<SuperPlan> = {}): SuperPlan {
  return {
    planId: '2',
    planName: 'Tiffin One',
    title: '3 months',
    basePrice: 44700,
    finalPrice: 19900,
    discountApplied: 24800,
    discountDescription: 'Save ₹248 (55% off)',
    recommended: true,
    recommendedText: 'Most popular',
    planElement: ['Free delivery on orders above ₹199', 'Extra discounts of up to 30%'],
    icon: 'tiffin-one',
    cta: { text: 'Join for ₹199' },
    durationDays: 90,
    ...overrides,
  };
}

/** 1 Dec 2026 and 1 Mar 2027, 10:00 in India, as unix seconds. */
export const DEC_1 = Date.UTC(2026, 11, 1, 4, 30) / 1000;
export const MAR_1 = Date.UTC(2027, 2, 1, 4, 30) / 1000;

export function subscription(overrides: Partial<SuperSubscription> = {}): SuperSubscription {
  return {
    subscriptionId: 's1',
    planId: '2',
    planName: 'Tiffin One',
    title: '3 months',
    orderId: '5001',
    pricePaid: 19900,
    startsAt: DEC_1,
    endsAt: MAR_1,
    renews: true,
    ...overrides,
  };
}

/** GET profile/super for a member of `subscription()`, or as overridden. */
export function superStatus(overrides: Partial<SuperStatus> = {}): SuperStatus {
  return { status: 'SUPER', current: subscription(), upcoming: [], memberUntil: MAR_1, savings: 12300, renews: true, ...overrides };
}

export const notMember: SuperStatus = { status: 'NOT_SUPER', current: null, upcoming: [], memberUntil: 0, savings: 0, renews: false };
