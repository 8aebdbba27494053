/** Users, addresses and helpers shaped like docs/edge-api.md "Accounts", for this app's tests. */
import { fixtures } from '@tiffin/api-client/testing';
import { on, type Address, type User } from '@tiffin/contract';

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
