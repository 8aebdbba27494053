/**
 * Payment offers at checkout, as the customer sees them: each method's offers under it, and the
 * bill priced again for the way to pay chosen (a card by its first 6 digits or its saved
 * reference, a wallet by its code, UPI, cash), shown and paid exactly as cart/calculate answers it.
 */
import { fixtures, reply } from '@tiffin/api-client/testing';
import * as cartStore from '@tiffin/cart-store';
import { resetCurrentUserForTests, type Cart } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { billedCart, billPriced, bodyOf, checkoutEdge, paymentMethods, recordNavigation } from '../../test/checkout-fakes';
import App from '../App';
import { pricingOf } from './PaymentStep';

vi.mock('@tiffin/map/pin-map', () => import('@tiffin/map/testing/pin-map'));

let navigation: ReturnType<typeof recordNavigation>;

function renderCheckout() {
  navigation = recordNavigation();
  return render(<App route={{ id: 'checkout', pageType: 'CHECKOUT', params: {} }} path="/checkout" />);
}

afterEach(() => {
  navigation?.off();
  cleanup();
  cartStore.resetCart();
  resetCurrentUserForTests();
  document.cookie = 'deliveryAddressId=; Max-Age=0; Path=/';
  localStorage.clear();
  vi.unstubAllGlobals();
});

const HDFC = { offer_id: 'HDFCBANK', title: '10% off with HDFC Bank cards', description: 'Up to ₹100 off on orders above ₹299 paid with an HDFC Bank card' };
const MASTERCARD = { offer_id: 'MASTERCARD', title: '5% off with Mastercard', description: 'Up to ₹50 off on orders above ₹199 paid with a Mastercard' };
const MOBIKWIK = { offer_id: 'MOBIKWIK', title: '15% off with MobiKwik', description: 'Up to ₹75 off on orders above ₹249 paid with MobiKwik' };
const UPI = { offer_id: 'UPI', title: '₹40 off with UPI', description: 'Flat ₹40 off on orders above ₹599 paid by UPI' };

/** get-methods with each method's offers, and MobiKwik linked with ₹1,000. */
const methodsWithOffers = {
  ...paymentMethods,
  payment_groups: [
    { group_name: 'UPI', payment_methods: [{ payment_code: 'upi_collect', name: 'UPI ID', enabled: true, offers: [UPI] }] },
    { group_name: 'CARD', payment_methods: [{ payment_code: 'card', name: 'Credit & Debit cards', enabled: true, offers: [HDFC, MASTERCARD] }] },
    { group_name: 'WALLET', payment_methods: [{ payment_code: 'MOBIKWIK', name: 'MobiKwik', enabled: true, offers: [MOBIKWIK] }] },
    { group_name: 'cod', payment_methods: [{ payment_code: 'cod', name: 'Cash on Delivery', enabled: true, offers: [] }] },
  ],
  instruments: { saved_cards: [], saved_vpas: [], wallets: [fixtures.wallet({ walletCode: 'MOBIKWIK', name: 'MobiKwik', linked: true, balance: 100000 })], pay_later: fixtures.payLater() },
};

/** The ₹558 cart with the HDFC Bank offer's 10% off: ₹502.20 to pay. */
function hdfcCart(): Cart {
  const cart = billedCart();
  return {
    ...cart,
    bill: {
      lines: [
        ...cart.bill!.lines,
        { key: 'PAYMENT_OFFER', label: 'Bank offer', amount: -5580, tooltip: '10% off with HDFC Bank cards, up to ₹100' },
      ],
      to_pay: 50220,
    },
    paymentOffer: { offerId: 'HDFCBANK', title: '10% off with HDFC Bank cards', discount: 5580, message: '₹55.80 off with HDFC Bank cards' },
  } as Cart;
}

/** cart/calculate as the edge answers it: the HDFC Bank offer for its BIN, nothing for any other way to pay. */
function calculate(_url: URL, init?: RequestInit) {
  const body = bodyOf(init);
  return body.paymentMethod === 'card' && body.cardBin === '438628' ? hdfcCart() : { ...billedCart(), paymentOffer: null };
}

function offersEdge(table: Parameters<typeof checkoutEdge>[0] = {}) {
  return checkoutEdge({ '/api/payment/get-methods': methodsWithOffers, '/api/cart/calculate': calculate, ...table });
}

/** The bodies sent to cart/calculate, without the CSRF token. */
function priced(sent: ReturnType<typeof checkoutEdge>['sent']) {
  return sent.calculate.map(({ _csrf, ...body }) => body);
}

/**
 * The ways to pay priced, each once however often it was sent: the cart being fetched again (as
 * the page does on signing in) prices the same way again, which is right but not what these tests
 * are about.
 */
function pricedWays(sent: ReturnType<typeof checkoutEdge>['sent']) {
  const seen = new Set<string>();
  return priced(sent).filter((body) => !seen.has(JSON.stringify(body)) && !!seen.add(JSON.stringify(body)));
}

async function chooseCard(number: string) {
  fireEvent.click(await screen.findByRole('radio', { name: 'Credit & Debit cards' }));
  fireEvent.change(screen.getByLabelText('Card number'), { target: { value: number } });
  fireEvent.change(screen.getByLabelText('Expiry (MM/YY)'), { target: { value: '12/31' } });
  fireEvent.change(screen.getByLabelText('CVV'), { target: { value: '123' } });
  fireEvent.change(screen.getByLabelText('Name on card'), { target: { value: 'Asha Rao' } });
}

const billLine = (key: string) => screen.getByRole('region', { name: 'Bill Details' }).querySelector(`[data-bill-line="${key}"]`);

describe('checkout: payment offers on the methods', () => {
  it('lists each method its offers, and none where get-methods names none or predates offers', async () => {
    offersEdge();
    renderCheckout();
    const card = (await screen.findByRole('radio', { name: 'Credit & Debit cards' })).closest('li')!;
    expect(within(card).getAllByTestId('method-offer').map((o) => o.textContent)).toEqual(['10% off with HDFC Bank cards', '5% off with Mastercard']);
    expect(within(screen.getByRole('radio', { name: 'UPI ID' }).closest('li')!).getByTestId('method-offer').textContent).toBe('₹40 off with UPI');
    expect(within(screen.getByRole('radio', { name: 'MobiKwik (₹1,000)' }).closest('li')!).getByTestId('method-offer').textContent).toBe('15% off with MobiKwik');
    expect(within(screen.getByRole('radio', { name: 'Cash on Delivery' }).closest('li')!).queryByTestId('method-offer')).toBeNull();
    cleanup();
    cartStore.resetCart();

    checkoutEdge();
    renderCheckout();
    await screen.findByRole('radio', { name: 'Credit & Debit cards' });
    expect(screen.queryAllByTestId('method-offer')).toEqual([]);
  });
});

describe('checkout: the bill priced for the way to pay', () => {
  it('prices a card by its first 6 digits, shows the offer line and pays the lower total', async () => {
    const { sent } = offersEdge();
    renderCheckout();
    await screen.findByRole('button', { name: 'Pay ₹558' });
    expect(sent.calculate).toEqual([]);

    await chooseCard('4386 2800 0000 0004');
    const pay = await screen.findByRole('button', { name: 'Pay ₹502.20' });
    await billPriced();
    expect(billLine('PAYMENT_OFFER')?.textContent).toContain('Bank offer');
    expect(billLine('PAYMENT_OFFER')?.textContent).toContain('-₹55.80');
    fireEvent.click(within(screen.getByRole('region', { name: 'Bill Details' })).getByRole('button', { name: 'About Bank offer' }));
    expect(screen.getByRole('tooltip').textContent).toBe('10% off with HDFC Bank cards, up to ₹100');
    expect(screen.getByTestId('cart-to-pay').textContent).toBe('₹502.20');
    expect(screen.getByTestId('payment-offer-applied').textContent).toBe('₹55.80 off with HDFC Bank cards');
    // The card was priced once chosen, then for its first 6 digits: the rest of the form changes no price.
    expect(pricedWays(sent)).toEqual([
      { paymentMethod: 'card', address_id: '12' },
      { paymentMethod: 'card', cardBin: '438628', address_id: '12' },
    ]);

    fireEvent.click(pay);
    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(sent.place[0]).toMatchObject({ order: { to_pay: 50220 }, payment: { method: 'card', card: { number: '4386280000000004' } } });
  });

  it('goes back to the full bill when the customer then chooses a way to pay with no offer', async () => {
    const { sent } = offersEdge();
    renderCheckout();
    await chooseCard('4386 2800 0000 0004');
    await screen.findByRole('button', { name: 'Pay ₹502.20' });

    fireEvent.click(screen.getByRole('radio', { name: 'Cash on Delivery' }));
    const pay = await screen.findByRole('button', { name: 'Pay ₹558' });
    await billPriced();
    expect(billLine('PAYMENT_OFFER')).toBeNull();
    expect(screen.queryByTestId('payment-offer-applied')).toBeNull();
    expect(priced(sent).at(-1)).toEqual({ paymentMethod: 'cod', address_id: '12' });

    fireEvent.click(pay);
    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(sent.place[0]).toMatchObject({ order: { to_pay: 55800 }, payment: { method: 'cod' } });
  });

  it("prices a card with another bank's digits without the offer, and again only when the first 6 digits change", async () => {
    const { sent } = offersEdge();
    renderCheckout();
    fireEvent.click(await screen.findByRole('radio', { name: 'Credit & Debit cards' }));
    const number = screen.getByLabelText('Card number');
    for (const typed of ['4', '41', '411', '4111', '41111', '411111', '4111 1', '4111 11', '4111 1111 1111 1111']) {
      fireEvent.change(number, { target: { value: typed } });
    }
    await billPriced();
    const withDigits = () => priced(sent).filter((body) => 'cardBin' in body);
    expect(pricedWays(sent)).toEqual([
      { paymentMethod: 'card', address_id: '12' },
      { paymentMethod: 'card', cardBin: '411111', address_id: '12' },
    ]);
    expect(withDigits()).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Pay ₹558' })).toBeTruthy();

    fireEvent.change(number, { target: { value: '4386 2800 0000 0004' } });
    expect(await screen.findByRole('button', { name: 'Pay ₹502.20' })).toBeTruthy();
    expect(withDigits()).toEqual([
      { paymentMethod: 'card', cardBin: '411111', address_id: '12' },
      { paymentMethod: 'card', cardBin: '438628', address_id: '12' },
    ]);
  });

  it('prices a saved card by its reference, a wallet by its code and UPI as upi_collect', async () => {
    const { sent } = offersEdge({ '/api/profile/saved-cards': { cards: [fixtures.savedCard({ card_reference: 'card_9', last4: '0004' })] } });
    renderCheckout();
    fireEvent.click(await screen.findByRole('radio', { name: 'VISA •••• 0004 (08/29)' }));
    await billPriced();
    fireEvent.click(screen.getByRole('radio', { name: 'MobiKwik (₹1,000)' }));
    await billPriced();
    fireEvent.click(screen.getByRole('radio', { name: 'UPI ID' }));
    await billPriced();
    expect(pricedWays(sent)).toEqual([
      { paymentMethod: 'card', savedCardReference: 'card_9', address_id: '12' },
      { paymentMethod: 'MOBIKWIK', address_id: '12' },
      { paymentMethod: 'upi_collect', address_id: '12' },
    ]);
  });

  it("keeps the bill when the re-price fails, and place-v2's bill-changed answer brings the right one", async () => {
    let failing = false;
    let offerUsed = false;
    const { sent } = offersEdge({
      '/api/cart/calculate': (url: URL, init?: RequestInit) => {
        if (failing) return reply(503, 777, 'Service unavailable');
        return offerUsed ? { ...billedCart(), paymentOffer: null } : calculate(url, init);
      },
      '/api/order/place-v2': () => {
        // Used meanwhile in another tab: the edge prices the order without it.
        offerUsed = true;
        failing = false;
        return reply(200, 22, 'You have already used this offer today. Your bill has changed to ₹558. Please review it and pay again.');
      },
    });
    renderCheckout();
    await chooseCard('4386 2800 0000 0004');
    await screen.findByRole('button', { name: 'Pay ₹502.20' });
    await billPriced();

    failing = true;
    fireEvent.change(screen.getByLabelText('Card number'), { target: { value: '4386 2900 0000 0004' } });
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    await billPriced();
    // The failed re-price left the bill as it was; its offer's words are for the digits before.
    const pay = screen.getByRole('button', { name: 'Pay ₹502.20' }) as HTMLButtonElement;
    expect(pay.disabled).toBe(false);
    expect(screen.queryByTestId('payment-offer-applied')).toBeNull();

    fireEvent.click(pay);
    expect(await screen.findByText('You have already used this offer today. Your bill has changed to ₹558. Please review it and pay again.')).toBeTruthy();
    expect(sent.place[0]).toMatchObject({ order: { to_pay: 50220 } });
    expect(await screen.findByRole('button', { name: 'Pay ₹558' })).toBeTruthy();
    await billPriced();
    expect(billLine('PAYMENT_OFFER')).toBeNull();
    expect(priced(sent).at(-1)).toEqual({ paymentMethod: 'card', cardBin: '438629', address_id: '12' });
  });

  it('names the way to pay as place-v2 prices it', () => {
    expect(pricingOf(null, '')).toBeNull();
    expect(pricingOf({ kind: 'card' }, '4386 2')).toEqual({ paymentMethod: 'card' });
    expect(pricingOf({ kind: 'card' }, '4386-28')).toEqual({ paymentMethod: 'card', cardBin: '438628' });
    expect(pricingOf({ kind: 'wallet', code: 'mobikwik', name: 'MobiKwik' }, '')).toEqual({ paymentMethod: 'MOBIKWIK' });
    expect(pricingOf({ kind: 'paylater', code: 'LazyPay', name: 'LazyPay' }, '')).toEqual({ paymentMethod: 'lazypay' });
    expect(pricingOf({ kind: 'netbanking' }, '')).toEqual({ paymentMethod: 'netbanking' });
    expect(pricingOf({ kind: 'tiffin_money' }, '')).toEqual({ paymentMethod: 'tiffin_money' });
  });
});
