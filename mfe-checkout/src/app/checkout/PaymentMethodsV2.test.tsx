/**
 * Checkout's newer ways to pay, as the customer sees them: linking a wallet at checkout, pay-later,
 * netbanking through the bank's window, and split pay with Tiffin Money.
 */
import { fixtures, reply } from '@tiffin/api-client/testing';
import * as cartStore from '@tiffin/cart-store';
import { resetCurrentUserForTests } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { billPriced, checkoutEdge, methodsWith, payment, placed, recordNavigation } from '../../test/checkout-fakes';
import App from '../App';

vi.mock('@tiffin/map/pin-map', () => import('@tiffin/map/testing/pin-map'));

let navigation: ReturnType<typeof recordNavigation>;

function renderCheckout() {
  navigation = recordNavigation();
  return render(<App route={{ id: 'checkout', pageType: 'CHECKOUT', params: {} }} path="/checkout" />);
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

const statusCalls = (fetch: ReturnType<typeof checkoutEdge>['fetch']) => fetch.mock.calls.filter(([url]) => String(url).includes('upi/txn-status')).length;

describe('checkout: linking a wallet', () => {
  it('links a wallet that is not linked with the OTP right here, then pays from it', async () => {
    const { sent } = checkoutEdge({
      '/api/payment/get-methods': methodsWith({ wallets: [] }),
      '/api/payment/wallet/link': { walletCode: 'PAYTM', otpSent: true, linked: false },
      '/api/payment/wallet/validate-otp': (_url: URL, init?: RequestInit) =>
        JSON.parse(String(init?.body)).otp === '123456' ? fixtures.wallet({ linked: true, balance: 50000 + 10000 }) : reply(400, 1, 'The OTP you entered is incorrect'),
    });
    renderCheckout();
    const wallets = await screen.findByRole('region', { name: 'WALLET' });
    fireEvent.click(await within(wallets).findByRole('button', { name: 'LINK' }));
    const otp = await within(wallets).findByPlaceholderText('Enter 6-digit OTP');
    fireEvent.change(otp, { target: { value: '111111' } });
    fireEvent.click(within(wallets).getByRole('button', { name: 'VERIFY' }));
    expect((await within(wallets).findByRole('alert')).textContent).toBe('The OTP you entered is incorrect');

    fireEvent.change(otp, { target: { value: '123456' } });
    fireEvent.click(within(wallets).getByRole('button', { name: 'VERIFY' }));
    fireEvent.click(await within(wallets).findByRole('radio', { name: 'Paytm (₹600)' }));
    fireEvent.click(await payButton());
    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(sent.place[0]).toMatchObject({ payment: { method: 'wallet', wallet_code: 'PAYTM' } });
  });
});

describe('checkout: pay later', () => {
  const lazypay = (availableLimit: number) => fixtures.payLater({ linked: true, meta: { availableLimit } });

  it('pays with a linked LazyPay, showing its available limit', async () => {
    const { sent } = checkoutEdge({ '/api/payment/paylater/check-linked': lazypay(500000) });
    renderCheckout();
    fireEvent.click(await screen.findByRole('radio', { name: 'LazyPay (₹5,000 available)' }));
    fireEvent.click(await payButton());
    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(sent.place[0]).toMatchObject({ payment: { method: 'paylater', paylater_code: 'lazypay' } });
    expect(sent.place[0]!.payment).not.toHaveProperty('split_with_tiffin_money');
  });

  it('shows the reason when LazyPay refuses for want of limit, and nothing is confirmed', async () => {
    const { sent } = checkoutEdge({
      '/api/payment/paylater/check-linked': lazypay(60000),
      '/api/order/place-v2': placed(payment({ status: 'AUTHORIZATION_FAILED', failure_reason: 'Not enough LazyPay limit for this order.' })),
    });
    renderCheckout();
    fireEvent.click(await screen.findByRole('radio', { name: 'LazyPay (₹600 available)' }));
    fireEvent.click(await payButton());
    const failure = await screen.findByText('Not enough LazyPay limit for this order.');
    expect(failure.closest('[role="alert"]')?.textContent).toContain('Payment failed');
    expect(sent.confirm).toHaveLength(0);
    expect(navigation.to).toEqual([]);
  });

  it('shows a limit below the bill as not choosable, with the reason', async () => {
    checkoutEdge({ '/api/payment/paylater/check-linked': lazypay(20000) });
    renderCheckout();
    const radio = (await screen.findByRole('radio', { name: 'LazyPay (₹200 available)' })) as HTMLInputElement;
    expect(radio.disabled).toBe(true);
    expect(screen.getByText('Not enough limit in LazyPay: ₹200 for a bill of ₹558')).toBeTruthy();
  });

  it('reads LazyPay as not linked when its status call fails, and links it with the OTP (resending once) to pay', async () => {
    const resent: unknown[] = [];
    let validated = false;
    const { sent } = checkoutEdge({
      '/api/payment/paylater/check-linked': () => (validated ? lazypay(500000) : reply(503, 1, 'We could not reach LazyPay. Please try again in a moment')),
      '/api/payment/paylater/link': { walletCode: 'lazypay', otpSent: true, linked: false },
      '/api/payment/paylater/resend-otp': (_url: URL, init?: RequestInit) => (resent.push(JSON.parse(String(init?.body))), { walletCode: 'lazypay', otpSent: true, linked: false }),
      '/api/payment/paylater/validate-otp': () => ((validated = true), lazypay(500000)),
    });
    renderCheckout();
    const payLater = await screen.findByRole('region', { name: 'PAY_LATER' });
    await within(payLater).findByText('(not linked)');
    expect(screen.queryByText(/We could not reach LazyPay/)).toBeNull();

    fireEvent.click(within(payLater).getByRole('button', { name: 'LINK' }));
    const group = await within(payLater).findByRole('group', { name: 'Link LazyPay' });
    fireEvent.click(within(group).getByRole('button', { name: 'Resend OTP' }));
    await waitFor(() => expect(resent).toEqual([expect.objectContaining({ walletCode: 'lazypay' })]));
    fireEvent.change(within(group).getByPlaceholderText('Enter 6-digit OTP'), { target: { value: '123456' } });
    fireEvent.click(within(group).getByRole('button', { name: 'VERIFY' }));

    fireEvent.click(await within(payLater).findByRole('radio', { name: 'LazyPay (₹5,000 available)' }));
    fireEvent.click(await payButton());
    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(sent.place[0]).toMatchObject({ payment: { method: 'paylater', paylater_code: 'lazypay' } });
  });
});

describe('checkout: netbanking', () => {
  const toBank = () => placed(payment({ status: 'PENDING_VBV', next_action: 'REDIRECT_TO_BANK', redirect_url: '/sandbox/bank/pay_1' }));
  const pending = payment({ status: 'PENDING_VBV', next_action: 'REDIRECT_TO_BANK', redirect_url: '/sandbox/bank/pay_1' });

  /** A stand-in for the bank's window; `blocked` makes window.open answer null as a popup blocker does. */
  function stubWindowOpen({ blocked = false } = {}) {
    const bankWindow = { location: { href: 'about:blank' }, closed: false, close: vi.fn(() => void (bankWindow.closed = true)) };
    const open = vi.fn(() => (blocked ? null : bankWindow));
    vi.stubGlobal('open', open);
    return { open, bankWindow };
  }

  /** Chooses netbanking and `bank`, then presses Pay with fake timers so the polling can be stepped. */
  async function payByNetbanking(bank = 'HDFC Bank') {
    fireEvent.click(await screen.findByRole('radio', { name: 'Netbanking' }));
    const select = (await screen.findByLabelText('Your bank')) as HTMLSelectElement;
    await within(select).findByRole('option', { name: bank });
    fireEvent.change(select, { target: { value: within(select).getByRole('option', { name: bank }).getAttribute('value') } });
    const pay = await payButton();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    fireEvent.click(pay);
    await act(() => vi.advanceTimersByTimeAsync(0));
  }

  it('lists the banks, opens the bank page in a window, polls every second and confirms once the bank approves', async () => {
    let polls = 0;
    const { open, bankWindow } = stubWindowOpen();
    const { fetch, sent } = checkoutEdge({
      '/api/order/place-v2': toBank,
      '/api/payment/upi/txn-status': () => ((polls += 1), polls < 3 ? pending : payment()),
    });
    renderCheckout();
    await payByNetbanking();

    expect(sent.place[0]).toMatchObject({ payment: { method: 'netbanking', bank_code: 'HDFC' } });
    expect(open).toHaveBeenCalledTimes(1);
    expect(bankWindow.location.href).toBe('/sandbox/bank/pay_1');
    const waiting = screen.getByRole('region', { name: 'Waiting for your bank' });
    expect(within(waiting).getByRole('heading').textContent).toBe("Complete the payment on your bank's page");
    expect((screen.getByRole('button', { name: 'Pay ₹558' }) as HTMLButtonElement).disabled).toBe(true);

    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(statusCalls(fetch)).toBe(2);
    expect(navigation.to).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(navigation.to).toEqual(['/order-confirmation/1000123']);
    expect(bankWindow.close).toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(statusCalls(fetch)).toBe(3);
  });

  it('says the bank declined, closes its window, and the customer can pay another way', async () => {
    const { bankWindow } = stubWindowOpen();
    let attempt = 0;
    const { sent } = checkoutEdge({
      '/api/order/place-v2': () => ((attempt += 1), attempt === 1 ? toBank() : placed(payment())),
      '/api/payment/upi/txn-status': payment({ status: 'AUTHORIZATION_FAILED', failure_reason: 'Your bank declined the payment' }),
    });
    renderCheckout();
    await payByNetbanking('State Bank of India');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    const failure = screen.getByText('Your bank declined the payment');
    expect(failure.closest('[role="alert"]')?.textContent).toContain('Payment failed');
    expect(screen.queryByRole('region', { name: 'Waiting for your bank' })).toBeNull();
    expect(bankWindow.close).toHaveBeenCalled();
    vi.useRealTimers();

    fireEvent.click(screen.getByRole('radio', { name: 'Cash on Delivery' }));
    fireEvent.click(await payButton());
    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(sent.place[0]).toMatchObject({ payment: { method: 'netbanking', bank_code: 'SBI' } });
    expect(sent.place[1]).toMatchObject({ payment: { method: 'cod' } });
    expect(sent.place[1]!.idempotency_key).not.toBe(sent.place[0]!.idempotency_key);
  });

  it('offers a link to the bank page when the browser blocked the window', async () => {
    stubWindowOpen({ blocked: true });
    checkoutEdge({ '/api/order/place-v2': toBank, '/api/payment/upi/txn-status': pending });
    renderCheckout();
    await payByNetbanking();
    const waiting = screen.getByRole('region', { name: 'Waiting for your bank' });
    expect(waiting.textContent).toContain("Your browser blocked the window for your bank's page.");
    const link = within(waiting).getByRole('link', { name: "Open your bank's page" });
    expect(link.getAttribute('href')).toBe('/sandbox/bank/pay_1');
    expect(link.getAttribute('target')).toBe('tiffin-bank');
  });

  it('cancels the payment from the waiting state the way the 3-D Secure page abandons, and stops polling', async () => {
    const { bankWindow } = stubWindowOpen();
    const { fetch, sent } = checkoutEdge({
      '/api/order/place-v2': toBank,
      '/api/payment/upi/txn-status': pending,
      '/api/payment/authenticate': payment({ status: 'USER_ABORTED', failure_reason: 'You cancelled the payment.' }),
    });
    renderCheckout();
    await payByNetbanking();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(statusCalls(fetch)).toBe(1);

    fireEvent.click(within(screen.getByRole('region', { name: 'Waiting for your bank' })).getByRole('button', { name: 'Cancel payment' }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(sent.authenticate).toEqual([expect.objectContaining({ payment_id: 'pay_1', abandon: true })]);
    expect(screen.getByText('You cancelled the payment.')).toBeTruthy();
    expect(bankWindow.close).toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(statusCalls(fetch)).toBe(1);
    expect(navigation.to).toEqual([]);
  });

  it('asks for a bank before paying, and closes the window again when the payment needs no bank page', async () => {
    const { bankWindow } = stubWindowOpen();
    const { sent } = checkoutEdge({ '/api/order/place-v2': reply(200, 22, 'Your bill has changed to ₹600. Please review it and pay again.') });
    renderCheckout();
    fireEvent.click(await screen.findByRole('radio', { name: 'Netbanking' }));
    fireEvent.click(await payButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Choose your bank.');
    expect(sent.place).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Your bank'), { target: { value: 'ICICI' } });
    fireEvent.click(await payButton());
    expect(await screen.findByText('Your bill has changed to ₹600. Please review it and pay again.')).toBeTruthy();
    expect(bankWindow.close).toHaveBeenCalled();
  });

  it('lists netbanking as unavailable when the banks cannot be read', async () => {
    checkoutEdge({ '/api/payment/netbanking/banks': reply(503, 777, "Something's broken") });
    renderCheckout();
    const radio = (await screen.findByRole('radio', { name: /Netbanking/ })) as HTMLInputElement;
    expect(radio.disabled).toBe(true);
    expect(await screen.findByText('We could not load the banks. Please choose another way to pay.')).toBeTruthy();
  });
});

describe('checkout: split pay with Tiffin Money', () => {
  const split = (balance: number) => methodsWith({ split: { available: true, tiffin_money_balance: balance } });

  async function chooseCard() {
    fireEvent.click(await screen.findByRole('radio', { name: 'Credit & Debit cards' }));
    fireEvent.change(screen.getByLabelText('Card number'), { target: { value: '4111 1111 1111 1111' } });
    fireEvent.change(screen.getByLabelText('Expiry (MM/YY)'), { target: { value: '12/31' } });
    fireEvent.change(screen.getByLabelText('CVV'), { target: { value: '123' } });
    fireEvent.change(screen.getByLabelText('Name on card'), { target: { value: 'Asha Rao' } });
  }

  it('uses Tiffin Money for part of the bill and the card for the rest', async () => {
    const { sent } = checkoutEdge({
      '/api/payment/get-methods': split(20000),
      '/api/order/place-v2': placed(payment({ amount: 55800, tiffin_money_paise: 20000 })),
    });
    renderCheckout();
    await chooseCard();
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Use Tiffin Money (₹200)' }));
    expect(screen.getByText('Pay ₹358 by Credit & Debit cards')).toBeTruthy();
    fireEvent.click(await payButton());
    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(sent.place[0]).toMatchObject({ order: { to_pay: 55800 }, payment: { method: 'card', split_with_tiffin_money: true } });
  });

  it("asks the bank only for the rest: the waiting state names the bank's part of a split payment", async () => {
    vi.stubGlobal('open', vi.fn(() => ({ location: { href: 'about:blank' }, closed: false, close: vi.fn() })));
    const { sent } = checkoutEdge({
      '/api/payment/get-methods': split(20000),
      '/api/order/place-v2': placed(
        payment({ status: 'PENDING_VBV', next_action: 'REDIRECT_TO_BANK', redirect_url: '/sandbox/bank/pay_1', amount: 55800, tiffin_money_paise: 20000 }),
      ),
      '/api/payment/upi/txn-status': payment({ status: 'PENDING_VBV', next_action: 'REDIRECT_TO_BANK', redirect_url: '/sandbox/bank/pay_1' }),
    });
    renderCheckout();
    fireEvent.click(await screen.findByRole('radio', { name: 'Netbanking' }));
    fireEvent.change(await screen.findByLabelText('Your bank'), { target: { value: 'HDFC' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Use Tiffin Money (₹200)' }));
    expect(screen.getByText('Pay ₹358 by Netbanking')).toBeTruthy();
    fireEvent.click(await payButton());
    const waiting = await screen.findByRole('region', { name: 'Waiting for your bank' });
    expect(waiting.textContent).toContain('to pay ₹358');
    expect(sent.place[0]).toMatchObject({ payment: { method: 'netbanking', bank_code: 'HDFC', split_with_tiffin_money: true } });
  });

  it('is not offered for cash, and is not sent when unticked', async () => {
    const { sent } = checkoutEdge({ '/api/payment/get-methods': split(20000) });
    renderCheckout();
    await chooseCard();
    const box = (await screen.findByRole('checkbox', { name: 'Use Tiffin Money (₹200)' })) as HTMLInputElement;
    fireEvent.click(box);
    fireEvent.click(screen.getByRole('radio', { name: 'Cash on Delivery' }));
    expect(screen.queryByRole('checkbox', { name: /Use Tiffin Money/ })).toBeNull();
    expect(screen.queryByText(/ by /)).toBeNull();
    fireEvent.click(await payButton());
    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(sent.place[0]!.payment).toEqual({ method: 'cod' });
  });

  it('lets a wallet that covers only the rest pay it', async () => {
    const { sent } = checkoutEdge({
      '/api/payment/get-methods': methodsWith({ wallets: [fixtures.wallet({ linked: true, balance: 40000 })], split: { available: true, tiffin_money_balance: 20000 } }),
    });
    renderCheckout();
    const paytm = (await screen.findByRole('radio', { name: 'Paytm (₹400)' })) as HTMLInputElement;
    expect(paytm.disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Use Tiffin Money (₹200)' }));
    expect(paytm.disabled).toBe(false);
    fireEvent.click(paytm);
    expect(screen.getByText('Pay ₹358 by Paytm')).toBeTruthy();
    fireEvent.click(await payButton());
    await waitFor(() => expect(navigation.to).toEqual(['/order-confirmation/1000123']));
    expect(sent.place[0]).toMatchObject({ payment: { method: 'wallet', wallet_code: 'PAYTM', split_with_tiffin_money: true } });
  });

  it('is not offered when Tiffin Money covers the bill or split pay is not available', async () => {
    checkoutEdge({ '/api/payment/get-methods': split(60000) });
    renderCheckout();
    await screen.findByRole('radio', { name: 'Credit & Debit cards' });
    expect(screen.queryByRole('checkbox', { name: /Use Tiffin Money/ })).toBeNull();
    cleanup();
    cartStore.resetCart();

    checkoutEdge({ '/api/payment/get-methods': methodsWith({ split: { available: false, tiffin_money_balance: 20000 } }) });
    renderCheckout();
    await screen.findByRole('radio', { name: 'Credit & Debit cards' });
    expect(screen.queryByRole('checkbox', { name: /Use Tiffin Money/ })).toBeNull();
  });
});
