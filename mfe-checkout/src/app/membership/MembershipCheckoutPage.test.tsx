import { fixtures } from '@tiffin/api-client/testing';
import * as cartStore from '@tiffin/cart-store';
import { resetCurrentUserForTests, type CartWithMembership } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { billedCart, bodyOf, checkoutEdge, payment, placed, recordNavigation } from '../../test/checkout-fakes';
import App from '../App';

vi.mock('@tiffin/map/pin-map', () => import('@tiffin/map/testing/pin-map'));

/** A cart of the 3-month plan alone, billed by the cart service. */
function planCart(overrides: Partial<CartWithMembership> = {}): CartWithMembership {
  return {
    ...fixtures.emptyCart(),
    subscriptionItems: [{ planId: 2, planName: 'Tiffin One', title: '3 months', quantity: 1, price: 19900, basePrice: 44700, durationDays: 90 }],
    bill: { lines: [{ key: 'SUBSCRIPTION', label: 'Tiffin One · 3 months', amount: 19900, tooltip: '90 days of free deliveries' }], to_pay: 19900 },
    ...overrides,
  } as CartWithMembership;
}

let navigation: ReturnType<typeof recordNavigation>;

function renderPage(id = 'membership-checkout') {
  navigation = recordNavigation();
  return render(<App route={{ id, pageType: id === 'checkout' ? 'CHECKOUT' : 'MEMBERSHIP_CHECKOUT', params: {} }} path={id === 'checkout' ? '/checkout' : '/checkout/super'} />);
}

afterEach(() => {
  navigation?.off();
  cleanup();
  cartStore.resetCart();
  resetCurrentUserForTests();
  localStorage.clear();
  vi.unstubAllGlobals();
});

async function payByCard() {
  fireEvent.click(await screen.findByRole('radio', { name: 'Credit & Debit cards' }));
  fireEvent.change(screen.getByLabelText('Card number'), { target: { value: '4111 1111 1111 1111' } });
  fireEvent.change(screen.getByLabelText('Expiry (MM/YY)'), { target: { value: '12/31' } });
  fireEvent.change(screen.getByLabelText('CVV'), { target: { value: '123' } });
  fireEvent.change(screen.getByLabelText('Name on card'), { target: { value: 'Asha Rao' } });
  fireEvent.click(await screen.findByRole('button', { name: 'Pay ₹199' }));
}

describe('/checkout/super', () => {
  it('sends someone not signed in (an empty user state) to the membership page', () => {
    checkoutEdge({ '/api/cart': planCart() }, { signedIn: false });
    const { container } = renderPage();
    expect(navigation.to).toEqual(['/tiffin-one']);
    expect(container.querySelector('.chk-checkout')).toBeNull();
  });

  it('shows the plan from the cart with its price and bill, and every way to pay but cash on delivery', async () => {
    checkoutEdge({ '/api/cart': planCart() });
    renderPage();
    const plan = await screen.findByTestId('checkout-plan');
    expect(plan.textContent).toContain('Tiffin One · 3 months');
    expect(plan.textContent).toContain('90 days');
    expect(plan.querySelector('s')?.textContent).toBe('₹447');
    const bill = screen.getByRole('region', { name: 'Bill Details' });
    expect(within(bill).getByText('Tiffin One · 3 months')).toBeTruthy();
    expect(within(bill).getByTestId('cart-to-pay').textContent).toBe('₹199');
    const pay = screen.getByRole('region', { name: 'Payment' });
    expect(await within(pay).findByRole('radio', { name: 'Credit & Debit cards' })).toBeTruthy();
    expect(within(pay).getByRole('radio', { name: 'UPI ID' })).toBeTruthy();
    expect(within(pay).getByRole('radio', { name: 'Netbanking' })).toBeTruthy();
    expect(within(pay).queryByRole('radio', { name: 'Cash on Delivery' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Delivery address' })).toBeNull();
    expect(screen.getByText(/Membership fees are non-refundable/)).toBeTruthy();
  });

  it('places a SUBSCRIPTION order with no address, confirms it and opens the membership confirmation', async () => {
    const { sent } = checkoutEdge({
      '/api/cart': planCart(),
      '/api/order/place-v2': placed(payment({ amount: 19900 }), '7001'),
      '/api/order/confirm-v2': { order_id: '7001', order_total: 19900, order_status: 'PLACED' },
    });
    renderPage();
    await payByCard();
    await waitFor(() => expect(navigation.to).toEqual(['/tiffin-one/confirm?order_id=7001']));
    expect(sent.place).toHaveLength(1);
    expect(sent.place[0]!.order).toEqual({ order_type: 'SUBSCRIPTION', to_pay: 19900 });
    expect(sent.place[0]!.payment).toMatchObject({ method: 'card', card: { number: '4111111111111111' } });
    expect(sent.confirm).toEqual([expect.objectContaining({ order_id: '7001' })]);
  });

  it('shows a declined card and stays, ready to pay again', async () => {
    checkoutEdge({
      '/api/cart': planCart(),
      '/api/order/place-v2': placed(payment({ amount: 19900, status: 'AUTHORIZATION_FAILED', failure_reason: 'Your bank declined the card.' }), '7002'),
    });
    renderPage();
    await payByCard();
    const failed = await screen.findByRole('alert');
    expect(failed.textContent).toContain('Payment failed');
    expect(navigation.to).toEqual([]);
    expect((screen.getByRole('button', { name: 'Pay ₹199' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('says so when the cart holds no plan, with the way to the plans', async () => {
    checkoutEdge({ '/api/cart': fixtures.emptyCart() });
    renderPage();
    const empty = await screen.findByRole('region', { name: 'No Tiffin One plan in your cart' });
    expect(within(empty).getByRole('link', { name: 'SEE TIFFIN ONE PLANS' }).getAttribute('href')).toBe('/tiffin-one');
  });
});

describe('/checkout/super with food in the cart as well', () => {
  it('goes to the ordinary checkout, where food and plan are one order with an address', async () => {
    checkoutEdge({ '/api/cart': planCart({ cartItems: fixtures.cart().cartItems, cartItemsCount: 2, restaurant_details: fixtures.cart().restaurant_details }) });
    renderPage();
    await waitFor(() => expect(navigation.to).toEqual(['/checkout']));
  });
});

describe('/checkout with only a plan in the cart', () => {
  it('goes to the Tiffin One checkout: there is nothing to deliver', async () => {
    checkoutEdge({ '/api/cart': planCart() });
    renderPage('checkout');
    await waitFor(() => expect(navigation.to).toEqual(['/checkout/super']));
  });
});

describe('Tiffin One at the ordinary checkout', () => {
  it("says what the membership saved on a member's bill", async () => {
    checkoutEdge({ '/api/cart': { ...billedCart(), memberSavings: 2500, memberSavingsMessage: 'You saved ₹25 with Tiffin One' } });
    renderPage('checkout');
    expect((await screen.findByTestId('member-savings')).textContent).toBe('You saved ₹25 with Tiffin One');
  });

  it("adds the plan the cart suggests to a non-member, and the cart shows it with the food", async () => {
    const nudge = { planId: 2, planName: 'Tiffin One', title: '3 months', durationDays: 90, price: 19900, basePrice: 44700, savings: 2500, message: 'Save ₹25 on this order with Tiffin One' };
    let added = false;
    const bodies: Record<string, unknown>[] = [];
    const withPlan = { ...billedCart(), subscriptionItems: planCart().subscriptionItems, subscriptionNudge: null };
    checkoutEdge({
      '/api/cart': () => (added ? withPlan : { ...billedCart(), subscriptionNudge: nudge }),
      '/api/cart/addSubscriptionToCart': (_url: URL, init?: RequestInit) => {
        bodies.push(bodyOf(init));
        added = true;
        return withPlan;
      },
    });
    renderPage('checkout');
    const offer = await screen.findByRole('region', { name: 'Tiffin One' });
    expect(offer.textContent).toContain('Save ₹25 on this order with Tiffin One');
    expect(offer.textContent).toContain('Tiffin One · 3 months for ₹199');
    fireEvent.click(within(offer).getByRole('button', { name: 'Add Tiffin One' }));
    expect((await screen.findByTestId('checkout-plan')).textContent).toContain('Tiffin One · 3 months');
    expect(bodies).toEqual([expect.objectContaining({ subscriptionItems: [{ plan_id: '2', quantity: 1 }] })]);
    expect(screen.queryByRole('region', { name: 'Tiffin One' })).toBeNull();
    expect(navigation.to).toEqual([]);
  });
});
