/**
 * The edge as checkout's tests need it: a signed-in customer, a billed cart with saved addresses,
 * the payment methods (with the banks and pay-later's status), the cart priced for a way to pay
 * (by default as the cart itself: no offer applies), and recorders for the cart/calculate,
 * place-v2, authenticate and confirm-v2 bodies the page sends.
 */
import { fixtures, installFakeEdge, type FakeEdgeTable } from '@tiffin/api-client/testing';
import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import { on, setCurrentUser, type Cart, type CartAddress, type PaymentStatusV2 as PaymentStatus, type SplitPay, type User, type Wallet } from '@tiffin/contract';

export const asha = {
  customer_id: '17',
  mobile: '9876543210',
  name: 'Asha',
  email: '',
  pendingEmail: '',
  emailVerified: false,
  optional_map: {},
  preferences: { sms: { orders: true, recommendations: true, reminders: false } },
} as User;

export const home: CartAddress = { id: '12', annotation: 'HOME', address: 'Flat 4B, 5th Block, Koramangala', area: 'Koramangala', delivery_valid: 1 };
export const work: CartAddress = { id: '14', annotation: 'WORK', address: 'Desk 7, Embassy Tech Village', area: 'Bellandur', delivery_valid: 1 };
export const far: CartAddress = { id: '13', annotation: 'OTHER', address: 'Plot 9, Whitefield', area: 'Whitefield', delivery_valid: 0 };

/** A cart billed at `toPay` paise to the home address. */
export function billedCart(toPay = 55800, overrides: Partial<Cart> = {}): Cart {
  return fixtures.cart({
    bill: { lines: [{ key: 'ITEM_TOTAL', label: 'Item Total', amount: toPay, tooltip: null }], to_pay: toPay },
    addresses: [home, far],
    address_id: home.id,
    ...overrides,
  });
}

export const paymentMethods = {
  payment_groups: [
    { group_name: 'UPI', payment_methods: [{ payment_code: 'upi_collect', name: 'UPI ID', enabled: true }] },
    { group_name: 'CARD', payment_methods: [{ payment_code: 'card', name: 'Credit & Debit cards', enabled: true }] },
    { group_name: 'WALLET', payment_methods: [{ payment_code: 'PAYTM', name: 'Paytm', enabled: true }] },
    {
      group_name: 'NETBANKING',
      payment_methods: [
        { payment_code: 'nb_hdfc', name: 'HDFC Bank', enabled: true },
        { payment_code: 'nb_sbi', name: 'State Bank of India', enabled: true },
      ],
    },
    {
      group_name: 'PAY_LATER',
      payment_methods: [
        { payment_code: 'simpl', name: 'Simpl', enabled: true },
        { payment_code: 'lazypay', name: 'LazyPay', enabled: true },
      ],
    },
    { group_name: 'cod', payment_methods: [{ payment_code: 'cod', name: 'Cash on Delivery', enabled: true }] },
    { group_name: 'crypto', payment_methods: [{ payment_code: 'btc', name: 'Bitcoin', enabled: true }] },
  ],
  instruments: null as null | { saved_cards: never[]; saved_vpas: never[]; wallets: Wallet[]; pay_later: ReturnType<typeof fixtures.payLater> },
  split_pay: { available: false, tiffin_money_balance: 0 } as SplitPay,
};

/** get-methods with the customer's linked `wallets` and split pay as given. */
export function methodsWith({ wallets = [], split }: { wallets?: Wallet[]; split?: SplitPay } = {}) {
  return {
    ...paymentMethods,
    instruments: { saved_cards: [], saved_vpas: [], wallets, pay_later: fixtures.payLater() },
    split_pay: split ?? paymentMethods.split_pay,
  };
}

export const banks = {
  banks: [
    { bank_code: 'HDFC', name: 'HDFC Bank' },
    { bank_code: 'ICICI', name: 'ICICI Bank' },
    { bank_code: 'SBI', name: 'State Bank of India' },
  ],
};

export function payment(overrides: Partial<PaymentStatus> = {}): PaymentStatus {
  return {
    payment_id: 'pay_1',
    status: 'CHARGED',
    amount: 55800,
    refunded: 0,
    failure_reason: '',
    next_action: 'NONE',
    poll_interval_ms: 0,
    expires_at: '',
    redirect_url: '',
    tiffin_money_paise: 0,
    ...overrides,
  };
}

export function placed(pay: PaymentStatus, orderId = '1000123') {
  return { order_id: orderId, order_total: pay.amount, order_status: pay.status === 'CHARGED' ? 'PLACED' : 'AWAITING_PAYMENT', payment: pay };
}

export function bodyOf(init?: RequestInit): Record<string, unknown> {
  return JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
}

/**
 * Installs the edge with a signed-in customer. `table` overrides or adds routes; every POST body
 * to place-v2, authenticate and confirm-v2 is recorded.
 */
export function checkoutEdge(table: FakeEdgeTable = {}, { signedIn = true }: { signedIn?: boolean } = {}) {
  const sent = {
    calculate: [] as Record<string, unknown>[],
    place: [] as Record<string, unknown>[],
    authenticate: [] as Record<string, unknown>[],
    confirm: [] as Record<string, unknown>[],
  };
  const record = (list: Record<string, unknown>[], answer: FakeEdgeTable[string]) => (url: URL, init?: RequestInit) => {
    list.push(bodyOf(init));
    return typeof answer === 'function' ? (answer as (url: URL, init?: RequestInit) => unknown)(url, init) : answer;
  };
  const cart = table['/api/cart'] ?? billedCart();
  /** The cart as `GET cart` answers it for the address the body names. */
  const cartFor = (init?: RequestInit) => {
    if (typeof cart !== 'function') return cart;
    const addressId = bodyOf(init).address_id;
    const url = new URL(addressId ? `http://localhost/api/cart?address_id=${String(addressId)}` : 'http://localhost/api/cart');
    return (cart as (url: URL, init?: RequestInit) => unknown)(url);
  };
  const fetch = installFakeEdge({
    '/api/cart': billedCart(),
    '/api/payment/get-methods': paymentMethods,
    '/api/profile/saved-cards': { cards: [] },
    '/api/payment/netbanking/banks': banks,
    '/api/payment/paylater/check-linked': fixtures.payLater(),
    '/api/profile/money': { balance: 0, transactions: [], hasMoreTxns: false },
    ...table,
    '/api/cart/calculate': record(sent.calculate, table['/api/cart/calculate'] ?? ((_url: URL, init?: RequestInit) => cartFor(init))),
    '/api/order/place-v2': record(sent.place, table['/api/order/place-v2'] ?? placed(payment())),
    '/api/payment/authenticate': record(sent.authenticate, table['/api/payment/authenticate'] ?? payment()),
    '/api/order/confirm-v2': record(sent.confirm, table['/api/order/confirm-v2'] ?? { order_id: '1000123', order_total: 55800, order_status: 'PLACED' }),
  });
  // Signing in makes the cart store fetch again, so the fake edge is in place first.
  if (signedIn) setCurrentUser(asha);
  return { fetch, sent };
}

/** Waits until the bill is priced for the way to pay chosen (the Pay button waits for it too). */
export async function billPriced() {
  await waitFor(() => expect(screen.getByRole('region', { name: 'Bill Details' }).getAttribute('aria-busy')).toBe('false'));
}

/** Records in-app navigations, claiming them as the shell does. */
export function recordNavigation() {
  const to: string[] = [];
  const off = on('route:navigate', (detail, event) => {
    event.preventDefault();
    to.push(detail.to);
  });
  return { to, off };
}
