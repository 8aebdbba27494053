import { fixtures, reply } from '@tiffin/api-client/testing';
import * as cartStore from '@tiffin/cart-store';
import { on, resetCurrentUserForTests, setCurrentUser } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { billPriced, asha, billedCart, bodyOf, checkoutEdge, far, home, methodsWith, payment, placed, recordNavigation, work } from '../../test/checkout-fakes';
import App from '../App';

// jsdom cannot draw the address form's Leaflet map: a stand-in drops the pin at a fixed point.
vi.mock('@tiffin/map/pin-map', () => import('@tiffin/map/testing/pin-map'));

const route = { id: 'checkout', pageType: 'CHECKOUT' as const, params: {} };
let navigation: ReturnType<typeof recordNavigation>;

function renderCheckout() {
  navigation = recordNavigation();
  return render(<App route={route} path="/checkout" />);
}

afterEach(() => {
  navigation?.off();
  vi.useRealTimers();
  cleanup();
  cartStore.resetCart();
  resetCurrentUserForTests();
  document.cookie = 'deliveryAddressId=; Max-Age=0; Path=/';
  localStorage.clear();
  vi.unstubAllGlobals();
});

/** The Pay button for `amount`, once the bill is priced for the way to pay chosen. */
async function payButton(amount = '₹558') {
  const button = (await screen.findByRole('button', { name: `Pay ${amount}` })) as HTMLButtonElement;
  await billPriced();
  return button;
}

async function chooseCard(number = '4111 1111 1111 1111') {
  fireEvent.click(await screen.findByRole('radio', { name: 'Credit & Debit cards' }));
  fireEvent.change(screen.getByLabelText('Card number'), { target: { value: number } });
  fireEvent.change(screen.getByLabelText('Expiry (MM/YY)'), { target: { value: '12/31' } });
  fireEvent.change(screen.getByLabelText('CVV'), { target: { value: '123' } });
  fireEvent.change(screen.getByLabelText('Name on card'), { target: { value: 'Asha Rao' } });
}

async function chooseUpi(vpa = 'success@tiffin') {
  fireEvent.click(await screen.findByRole('radio', { name: 'UPI ID' }));
  fireEvent.change(screen.getByLabelText('Your UPI ID'), { target: { value: vpa } });
}

const verified = (vpa: string) => ({ vpaAddress: vpa, valid: true, name: 'Asha Rao' });

describe('checkout: paying by card', () => {
  it('places the order with the card and the shown total, confirms it and opens the confirmation page', async () => {
    const { sent } = checkoutEdge();
    renderCheckout();
    await chooseCard();
    fireEvent.click(await payButton());

    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(sent.place).toHaveLength(1);
    expect(sent.place[0]).toMatchObject({
      order: { address_id: '12', order_type: 'REGULAR', to_pay: 55800 },
      payment: { method: 'card', card: { number: '4111111111111111', expiry_month: 12, expiry_year: 2031, cvv: '123', holder_name: 'Asha Rao', save_card: false } },
    });
    expect(typeof sent.place[0]!.idempotency_key).toBe('string');
    expect(sent.confirm).toEqual([expect.objectContaining({ order_id: '1000123' })]);
  });

  it('tells the customer what is wrong with the card form before sending anything', async () => {
    const { sent } = checkoutEdge();
    renderCheckout();
    await chooseCard('4111');
    fireEvent.click(await payButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Enter a valid card number.');
    expect(sent.place).toHaveLength(0);
  });

  it('shows a decline with its reason, and paying again is a new attempt with a new key', async () => {
    let attempt = 0;
    const { sent } = checkoutEdge({
      '/api/order/place-v2': () => {
        attempt += 1;
        return attempt === 1 ? placed(payment({ status: 'DECLINED', failure_reason: 'Your card was declined by the bank.' })) : placed(payment());
      },
    });
    renderCheckout();
    await chooseCard('4000 0000 0000 0002');
    fireEvent.click(await payButton());

    const failure = await screen.findByText('Your card was declined by the bank.');
    expect(failure.closest('[role="alert"]')?.textContent).toContain('Payment failed');
    expect(navigation.to).toEqual([]);

    await chooseCard('4111 1111 1111 1111');
    fireEvent.click(await payButton());
    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(sent.place).toHaveLength(2);
    expect(sent.place[1]!.idempotency_key).not.toBe(sent.place[0]!.idempotency_key);
  });

  it('resends the same key when the first try got no answer at all', async () => {
    let tries = 0;
    const keys: unknown[] = [];
    const { fetch } = checkoutEdge();
    const answer = fetch.getMockImplementation()!;
    fetch.mockImplementation(async (input: string, init?: RequestInit) => {
      if (String(input).includes('order/place-v2')) {
        tries += 1;
        keys.push(JSON.parse(String(init?.body)).idempotency_key);
        // The first press never gets an answer (all of the client's own retries fail too).
        if (tries <= 3) throw new TypeError('Failed to fetch');
      }
      return answer(input, init);
    });
    renderCheckout();
    await chooseCard();
    fireEvent.click(await payButton());
    expect(await screen.findByText('Please check your internet connection and try again.')).toBeTruthy();

    fireEvent.click(await payButton());
    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(new Set(keys).size).toBe(1);
    expect(keys).toHaveLength(4);
  });

  it('shows the new total when the bill changed and waits for the customer to pay again', async () => {
    let attempt = 0;
    let billChanged = false;
    const { sent } = checkoutEdge({
      '/api/cart': () => billedCart(billChanged ? 60000 : 55800),
      '/api/order/place-v2': () => {
        attempt += 1;
        if (attempt === 1) {
          billChanged = true;
          return reply(200, 22, 'Your bill has changed to ₹600. Please review it and pay again.');
        }
        return placed(payment({ amount: 60000 }));
      },
    });
    renderCheckout();
    await chooseCard();
    fireEvent.click(await payButton());

    await screen.findByText('Your bill has changed to ₹600. Please review it and pay again.');
    const payAgain = await payButton('₹600');
    expect(payAgain.disabled).toBe(false);
    expect(navigation.to).toEqual([]);
    expect(sent.confirm).toHaveLength(0);

    fireEvent.click(payAgain);
    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(sent.place[1]).toMatchObject({ order: { to_pay: 60000 } });
    expect(sent.place[1]!.idempotency_key).not.toBe(sent.place[0]!.idempotency_key);
  });
});

describe('checkout: saved cards and cash', () => {
  it('asks for the CVV of a saved card and pays with its reference', async () => {
    const { sent } = checkoutEdge({
      '/api/profile/saved-cards': { cards: [{ card_reference: 'card_9', network: 'VISA', last4: '1111', expiry_month: 4, expiry_year: 2030 }] },
    });
    renderCheckout();
    fireEvent.click(await screen.findByRole('radio', { name: 'VISA •••• 1111 (04/30)' }));
    fireEvent.click(await payButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Enter the 3 or 4 digit CVV.');
    expect(sent.place).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('CVV for •••• 1111'), { target: { value: '123' } });
    fireEvent.click(await payButton());
    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(sent.place[0]).toMatchObject({ payment: { method: 'saved_card', saved_card: { card_reference: 'card_9', cvv: '123' } } });
  });

  it('places a cash-on-delivery order straight away', async () => {
    const { sent } = checkoutEdge();
    renderCheckout();
    fireEvent.click(await screen.findByRole('radio', { name: 'Cash on Delivery' }));
    expect(screen.getByText('Pay with cash when your order arrives.')).toBeTruthy();
    fireEvent.click(await payButton());
    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(sent.place[0]).toMatchObject({ payment: { method: 'cod' } });
  });

  it('lists methods it cannot take yet as unavailable, offers linking a wallet that is not linked, and drops unknown groups', async () => {
    checkoutEdge();
    renderCheckout();
    const payLater = await screen.findByRole('region', { name: 'PAY_LATER' });
    expect((within(payLater).getByRole('radio', { name: /Simpl/ }) as HTMLInputElement).disabled).toBe(true);
    const wallet = await screen.findByRole('region', { name: 'WALLET' });
    expect(within(wallet).queryByRole('radio', { name: /Paytm/ })).toBeNull();
    expect(within(wallet).getByText('(not linked)')).toBeTruthy();
    expect(within(wallet).getByRole('button', { name: 'LINK' })).toBeTruthy();
    expect(screen.queryByText('Bitcoin')).toBeNull();
  });
});

describe('checkout: the bank page (3-D Secure)', () => {
  const needsOtp = placed(payment({ status: 'PENDING_VBV', next_action: 'ENTER_OTP' }));

  it('asks for the OTP in the app, says so when it is empty, and confirms after the right one', async () => {
    const { sent } = checkoutEdge({ '/api/order/place-v2': needsOtp });
    renderCheckout();
    await chooseCard('4000 0000 0000 3220');
    fireEvent.click(await payButton());

    const dialog = await screen.findByRole('dialog', { name: 'Verify your payment' });
    const otp = within(dialog).getByPlaceholderText('Enter 6-digit OTP');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Please enter the OTP.');
    expect(sent.authenticate).toHaveLength(0);

    fireEvent.change(otp, { target: { value: '123456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(sent.authenticate).toEqual([expect.objectContaining({ payment_id: 'pay_1', otp: '123456' })]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the failure after a wrong OTP, and closing the page abandons the payment', async () => {
    let answer = payment({ status: 'AUTHENTICATION_FAILED', failure_reason: 'The OTP you entered is incorrect.' });
    const { sent } = checkoutEdge({ '/api/order/place-v2': needsOtp, '/api/payment/authenticate': () => answer });
    renderCheckout();
    await chooseCard('4000 0000 0000 3220');
    fireEvent.click(await payButton());
    let dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByPlaceholderText('Enter 6-digit OTP'), { target: { value: '000000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('The OTP you entered is incorrect.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();

    answer = payment({ status: 'USER_ABORTED', failure_reason: 'You cancelled the payment.' });
    fireEvent.click(await payButton());
    dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('You cancelled the payment.')).toBeTruthy();
    expect(sent.authenticate[1]).toMatchObject({ payment_id: 'pay_1', abandon: true });
    expect(navigation.to).toEqual([]);
  });
});

describe('checkout: UPI', () => {
  const pendingUpi = () =>
    placed(payment({ status: 'PENDING_VBV', next_action: 'APPROVE_IN_UPI_APP', poll_interval_ms: 1000, expires_at: new Date(Date.now() + 180_000).toISOString() }));

  /** Real timers until the page is ready, then fake ones so the polling can be stepped. */
  async function payByUpiWithFakeTimers() {
    await chooseUpi();
    const pay = await payButton();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    fireEvent.click(pay);
    await act(() => vi.advanceTimersByTimeAsync(0));
  }

  const statusCalls = (fetch: ReturnType<typeof checkoutEdge>['fetch']) => fetch.mock.calls.filter(([url]) => String(url).includes('upi/txn-status')).length;

  it('counts down while polling every second, and confirms once the payment is charged', async () => {
    let polls = 0;
    const { fetch, sent } = checkoutEdge({
      '/api/payment/upi/verify-vpa': verified('success@tiffin'),
      '/api/order/place-v2': pendingUpi,
      '/api/payment/upi/txn-status': () => {
        polls += 1;
        return polls < 3 ? payment({ status: 'PENDING_VBV', next_action: 'APPROVE_IN_UPI_APP', poll_interval_ms: 1000 }) : payment();
      },
    });
    renderCheckout();
    await payByUpiWithFakeTimers();

    expect(screen.getByText('success@tiffin')).toBeTruthy();
    expect(screen.getByRole('timer').textContent).toBe('3:00');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(statusCalls(fetch)).toBe(2);
    expect(screen.getByRole('timer').textContent).toBe('2:58');
    expect(navigation.to).toEqual([]);

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(navigation.to).toEqual(['/order-confirmation/1000123']);
    expect(sent.place[0]).toMatchObject({ payment: { method: 'upi_collect', vpa: 'success@tiffin' } });
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(statusCalls(fetch)).toBe(3);
  });

  it('stops polling at the first error and says what went wrong', async () => {
    const { fetch } = checkoutEdge({
      '/api/payment/upi/verify-vpa': verified('success@tiffin'),
      '/api/order/place-v2': pendingUpi,
      '/api/payment/upi/txn-status': reply(404, 404, 'Payment not found'),
    });
    renderCheckout();
    await payByUpiWithFakeTimers();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByText('Payment not found')).toBeTruthy();
    expect(screen.queryByRole('timer')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(statusCalls(fetch)).toBe(1);
  });

  it('turns the countdown orange at half time and red at three quarters, then gives up when time is out', async () => {
    const { fetch } = checkoutEdge({
      '/api/payment/upi/verify-vpa': verified('success@tiffin'),
      '/api/order/place-v2': pendingUpi,
      '/api/payment/upi/txn-status': payment({ status: 'PENDING_VBV', next_action: 'APPROVE_IN_UPI_APP', poll_interval_ms: 1000 }),
    });
    renderCheckout();
    await payByUpiWithFakeTimers();
    const timer = () => screen.getByRole('timer') as HTMLElement;
    expect(timer().style.color).toBe('rgb(96, 178, 70)');

    await act(() => vi.advanceTimersByTimeAsync(89_000));
    expect(timer().dataset.colour).toBe('green');
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(timer().textContent).toBe('1:30');
    expect(timer().dataset.colour).toBe('orange');
    expect(timer().style.color).toBe('rgb(252, 128, 25)');

    await act(() => vi.advanceTimersByTimeAsync(45_000));
    expect(timer().dataset.colour).toBe('red');
    expect(timer().style.color).toBe('rgb(226, 55, 68)');

    await act(() => vi.advanceTimersByTimeAsync(45_000));
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByText(/The UPI request expired/)).toBeTruthy();
    const calls = statusCalls(fetch);
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(statusCalls(fetch)).toBe(calls);
  });

  it('does not send a UPI id the payments service cannot pay from', async () => {
    const { sent } = checkoutEdge({ '/api/payment/upi/verify-vpa': { vpaAddress: 'nobody@tiffin', valid: false, reason: 'This UPI ID does not exist.' } });
    renderCheckout();
    await chooseUpi('nobody@tiffin');
    fireEvent.click(await payButton());
    expect((await screen.findByRole('alert')).textContent).toBe('This UPI ID does not exist.');
    expect(sent.place).toHaveLength(0);
  });
});

describe('checkout: account and address', () => {
  it('offers a visitor the sign-in without leaving checkout, and moves on once they are signed in', async () => {
    checkoutEdge({ '/api/cart': billedCart(55800, { addresses: [], address_id: null }) }, { signedIn: false });
    const opened: string[] = [];
    const off = on('auth:open', ({ mode }) => opened.push(mode));
    renderCheckout();

    const account = await screen.findByRole('region', { name: 'Account' });
    expect(account.textContent).toContain('log in to your existing account or sign up');
    fireEvent.click(within(account).getByRole('button', { name: 'LOG IN' }));
    off();
    expect(opened).toEqual(['login']);
    expect((await payButton()).disabled).toBe(true);
    expect(screen.getByText('Log in to place your order.')).toBeTruthy();

    act(() => setCurrentUser(asha));
    expect((await within(account).findByText('Asha')).closest('p')?.textContent).toContain('Logged in as Asha');
  });

  it('lists every saved address but lets the customer choose only one the restaurant delivers to, billing the cart to it', async () => {
    const { fetch } = checkoutEdge({
      '/api/cart': (url: URL) => billedCart(url.searchParams.get('address_id') === work.id ? 56800 : 55800, { addresses: [home, far, work], address_id: url.searchParams.get('address_id') ?? home.id }),
    });
    renderCheckout();
    const region = await screen.findByRole('region', { name: 'Delivery address' });
    const farRadio = within(region).getByRole('radio', { name: /Whitefield/ }) as HTMLInputElement;
    expect(farRadio.disabled).toBe(true);
    expect(farRadio.closest('li')?.textContent).toContain('Does not deliver here');

    fireEvent.click(within(region).getByRole('radio', { name: /Embassy Tech Village/ }));
    expect(await payButton('₹568')).toBeTruthy();
    expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/api/cart?address_id=14'))).toBe(true);
  });

  it('holds payment back while the chosen address is one the restaurant does not deliver to', async () => {
    checkoutEdge({ '/api/cart': billedCart(55800, { addresses: [far], address_id: far.id }) });
    renderCheckout();
    const region = await screen.findByRole('region', { name: 'Delivery address' });
    expect((within(region).getByRole('radio') as HTMLInputElement).checked).toBe(false);
    expect(region.textContent).toContain('The restaurant does not deliver to any of your saved addresses.');
    expect((await payButton()).disabled).toBe(true);
    expect(screen.getByText('Choose a delivery address to place your order.')).toBeTruthy();
  });

  it('defaults to the work address on a weekday working hour', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 25, 11, 0)); // a Wednesday, 11:00
    const { fetch } = checkoutEdge({
      '/api/cart': (url: URL) => billedCart(55800, { addresses: [home, work], address_id: url.searchParams.get('address_id') }),
    });
    renderCheckout();
    const region = await screen.findByRole('region', { name: 'Delivery address' });
    await waitFor(() => expect((within(region).getByRole('radio', { name: /Embassy Tech Village/ }) as HTMLInputElement).checked).toBe(true));
    expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/api/cart?address_id=14'))).toBe(true);
  });

  it('offers a customer without addresses to add one right here', async () => {
    checkoutEdge({ '/api/cart': billedCart(55800, { addresses: [], address_id: null }) });
    renderCheckout();
    const region = await screen.findByRole('region', { name: 'Delivery address' });
    expect(region.textContent).toContain("You don't have an address to deliver.");
    fireEvent.click(within(region).getByRole('button', { name: 'ADD NEW ADDRESS' }));
    expect(within(region).getByRole('group', { name: 'Add a new address' })).toBeTruthy();
    expect((await payButton()).disabled).toBe(true);
  });

  it('says the cart is empty and links to the restaurants', async () => {
    checkoutEdge({ '/api/cart': billedCart(0, { cartItems: [], cartItemsCount: 0, restaurant_details: null, bill: null }) });
    renderCheckout();
    const empty = await screen.findByRole('region', { name: 'Your cart is empty' });
    expect(within(empty).getByRole('link', { name: 'SEE RESTAURANTS NEAR YOU' }).getAttribute('href')).toBe('/restaurants');
  });

  it('offers a retry when the cart cannot be read', async () => {
    let fail = true;
    checkoutEdge({ '/api/cart': () => (fail ? reply(500, 1, 'Oops') : billedCart()) });
    renderCheckout();
    expect(await screen.findByRole('heading', { name: 'We could not load your checkout' })).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await payButton()).toBeTruthy();
  });

  it('forgets a failed attempt when the customer leaves checkout and comes back', async () => {
    checkoutEdge({ '/api/order/place-v2': placed(payment({ status: 'DECLINED', failure_reason: 'Your card was declined by the bank.' })) });
    const first = renderCheckout();
    await chooseCard('4000 0000 0000 0002');
    fireEvent.click(await payButton());
    expect(await screen.findByText('Your card was declined by the bank.')).toBeTruthy();
    first.unmount();

    render(<App route={route} path="/checkout" />);
    expect(await payButton()).toBeTruthy();
    expect(screen.queryByText('Your card was declined by the bank.')).toBeNull();
    expect((screen.getByLabelText('Credit & Debit cards') as HTMLInputElement).checked).toBe(false);
  });
});

describe('checkout: adding an address inline', () => {
  const recommendation = {
    place_id: 'p1',
    formatted_address: '3 MG Road, Ashok Nagar, Bangalore',
    address_components: [],
    geometry: { location: { lat: 12.975, lng: 77.606 } },
    area: 'Ashok Nagar',
    city: 'bangalore',
    main_text: 'Ashok Nagar',
  };

  /**
   * The edge with `home` and `far` saved; saving adds `added` (with `savedDeliveryValid` in the save
   * reply), and the cart bills it at ₹600 with `cartDeliveryValid` for this restaurant.
   */
  function edgeWithNewAddress({ savedDeliveryValid = 1, cartDeliveryValid = 1, save }: { savedDeliveryValid?: number; cartDeliveryValid?: number; save?: unknown } = {}) {
    const added = fixtures.address('21', 'OTHER', { address: 'Flat 9, 3 MG Road, Ashok Nagar, Bangalore', area: 'Ashok Nagar', flat_no: 'Flat 9', delivery_valid: savedDeliveryValid });
    const listed = { id: added.id, annotation: added.annotation, address: added.address, area: added.area, delivery_valid: cartDeliveryValid };
    let saved = false;
    const saves: Record<string, unknown>[] = [];
    const edge = checkoutEdge({
      '/api/misc/address-recommend': [recommendation],
      '/api/address': (_url: URL, init?: RequestInit) => {
        saves.push(bodyOf(init));
        if (save) return save;
        saved = true;
        return { address: added, addresses: [added] };
      },
      '/api/cart': (url: URL) => {
        const asked = url.searchParams.get('address_id') ?? home.id;
        const addresses = saved ? [listed, home, far] : [home, far];
        return billedCart(asked === added.id ? 60000 : 55800, { addresses, address_id: asked });
      },
    });
    return { ...edge, saves };
  }

  /** Opens the inline form, drops the pin, fills the flat number and saves. */
  async function addAddress() {
    const region = await screen.findByRole('region', { name: 'Delivery address' });
    await within(region).findByRole('radio', { name: /5th Block/ });
    fireEvent.click(within(region).getByRole('button', { name: 'ADD NEW ADDRESS' }));
    const form = within(region).getByRole('group', { name: 'Add a new address' });
    fireEvent.click(await within(form).findByRole('button', { name: 'Drop pin' }));
    await within(form).findByTestId('picked-place');
    fireEvent.change(form.querySelector('input[name="flat_no"]')!, { target: { value: 'Flat 9' } });
    fireEvent.click(within(form).getByRole('button', { name: /SAVE ADDRESS/ }));
    return { region, form };
  }

  const cartCalls = (fetch: ReturnType<typeof checkoutEdge>['fetch']) => fetch.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/api/cart?'));

  it('saves the new address, lists it, chooses it and bills the cart to it', async () => {
    const { fetch, saves } = edgeWithNewAddress();
    renderCheckout();
    const { region } = await addAddress();

    const radio = (await within(region).findByRole('radio', { name: /3 MG Road/ })) as HTMLInputElement;
    await waitFor(() => expect(radio.checked).toBe(true));
    expect(await payButton('₹600')).toBeTruthy();
    expect(cartCalls(fetch)).toContain('/api/cart?address_id=21');
    expect(within(region).queryByRole('group', { name: 'Add a new address' })).toBeNull();
    expect(saves[0]).toMatchObject({ annotation: 'HOME', flat_no: 'Flat 9', address: '3 MG Road, Ashok Nagar, Bangalore', lat: 12.93611, lng: 77.62622 });
  });

  it("keeps the form open with the edge's message when the save is refused", async () => {
    const { fetch } = edgeWithNewAddress({ save: reply(400, 1, 'Please select a location.') });
    renderCheckout();
    const { region, form } = await addAddress();

    expect((await within(form).findByRole('alert')).textContent).toBe('Please select a location.');
    expect(within(region).getByRole('group', { name: 'Add a new address' })).toBe(form);
    expect((form.querySelector('input[name="flat_no"]') as HTMLInputElement).value).toBe('Flat 9');
    expect(within(region).queryByRole('radio', { name: /3 MG Road/ })).toBeNull();
    expect((within(region).getByRole('radio', { name: /5th Block/ }) as HTMLInputElement).checked).toBe(true);
    expect(cartCalls(fetch)).not.toContain('/api/cart?address_id=21');
  });

  it('lists a new address this restaurant does not deliver to as not deliverable, keeps the chosen one and its bill', async () => {
    const { fetch } = edgeWithNewAddress({ cartDeliveryValid: 0 });
    renderCheckout();
    const { region } = await addAddress();

    expect(await within(region).findByText(/the restaurant does not deliver there/)).toBeTruthy();
    const radio = within(region).getByRole('radio', { name: /3 MG Road/ }) as HTMLInputElement;
    expect(radio.checked).toBe(false);
    expect(radio.disabled).toBe(true);
    expect(radio.closest('li')?.textContent).toContain('Does not deliver here');
    await waitFor(() => expect((within(region).getByRole('radio', { name: /5th Block/ }) as HTMLInputElement).checked).toBe(true));
    expect(await payButton('₹558')).toBeTruthy();
    expect(cartCalls(fetch).slice(-1)).toEqual(['/api/cart?address_id=12']);
  });

  it('does not bill the cart to a new address no restaurant delivers to', async () => {
    const { fetch } = edgeWithNewAddress({ savedDeliveryValid: 0, cartDeliveryValid: 0 });
    renderCheckout();
    const { region } = await addAddress();

    const radio = (await within(region).findByRole('radio', { name: /3 MG Road/ })) as HTMLInputElement;
    expect(radio.checked).toBe(false);
    expect(await within(region).findByText(/the restaurant does not deliver there/)).toBeTruthy();
    expect(cartCalls(fetch)).not.toContain('/api/cart?address_id=21');
    expect((within(region).getByRole('radio', { name: /5th Block/ }) as HTMLInputElement).checked).toBe(true);
  });
});

describe('checkout: linked wallets and Tiffin Money', () => {
  const paytm = (balance: number) => methodsWith({ wallets: [{ walletCode: 'PAYTM', name: 'Paytm', linked: true, balance }] });
  const money = (balance: number) => ({ balance, transactions: [], hasMoreTxns: false });

  it('pays from a linked wallet whose balance covers the bill', async () => {
    const { sent } = checkoutEdge({ '/api/payment/get-methods': paytm(100000) });
    renderCheckout();
    fireEvent.click(await screen.findByRole('radio', { name: 'Paytm (₹1,000)' }));
    fireEvent.click(await payButton());
    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(sent.place[0]).toMatchObject({ payment: { method: 'wallet', wallet_code: 'PAYTM' } });
  });

  it('shows a wallet below the bill as not choosable, with the reason', async () => {
    checkoutEdge({ '/api/payment/get-methods': paytm(20000) });
    renderCheckout();
    const radio = (await screen.findByRole('radio', { name: 'Paytm (₹200)' })) as HTMLInputElement;
    expect(radio.disabled).toBe(true);
    expect(await screen.findByText('Not enough balance in Paytm: ₹200 for a bill of ₹558')).toBeTruthy();
  });

  it('pays from Tiffin Money when it covers the bill, and says why not when it does not', async () => {
    const { sent } = checkoutEdge({ '/api/profile/money': money(60000) });
    renderCheckout();
    fireEvent.click(await screen.findByRole('radio', { name: 'Tiffin Money (₹600)' }));
    fireEvent.click(await payButton());
    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(sent.place[0]).toMatchObject({ payment: { method: 'tiffin_money' } });
    cleanup();
    cartStore.resetCart();

    checkoutEdge({ '/api/profile/money': money(0) });
    renderCheckout();
    const radio = (await screen.findByRole('radio', { name: 'Tiffin Money (₹0)' })) as HTMLInputElement;
    expect(radio.disabled).toBe(true);
    expect(await screen.findByText('Not enough Tiffin Money: ₹0 for a bill of ₹558')).toBeTruthy();
  });
});
