import { fixtures, installFakeEdge, reply, type FakeEdgeTable } from '@tiffin/api-client/testing';
import { on, resetCurrentUserForTests, setCurrentUser } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { asha, bodyOf, captureNavigation, clearCookies, noPaymentAccounts } from '../../test/fixtures';
import App from '../App';

// The address form's map stands in for Leaflet (which jsdom cannot draw).
vi.mock('@tiffin/map/pin-map', () => import('@tiffin/map/testing/pin-map'));

const methods = {
  payment_groups: [
    { group_name: 'UPI', payment_methods: [{ payment_code: 'upi_collect', name: 'UPI', enabled: true }] },
    {
      group_name: 'WALLET',
      payment_methods: [
        { payment_code: 'PAYTM', name: 'Paytm', enabled: true },
        { payment_code: 'PHONEPE', name: 'PhonePe', enabled: true },
      ],
    },
  ],
};

let nav: ReturnType<typeof captureNavigation>;
const toasts: string[] = [];
let offToasts: () => void;

/** The Payments tab of a signed-in customer against `table` (nothing saved or linked unless it says). */
function openPayments(table: FakeEdgeTable) {
  installFakeEdge({
    ...noPaymentAccounts,
    '/api/payment/get-methods': methods,
    '/api/profile/saved-cards': { cards: [] },
    '/api/profile/money': { balance: 0, transactions: [], hasMoreTxns: false },
    ...table,
  });
  setCurrentUser(asha);
  return render(<App route={{ id: 'account', pageType: 'ACCOUNT', params: { tab: 'payments' } }} path="/my-account/payments" />);
}

const row = async (testId: string, name: string) => (await screen.findAllByTestId(testId)).find((r) => r.textContent?.includes(name))!;
const otpInput = () => screen.getByPlaceholderText('Enter 6-digit OTP');
const verify = () => fireEvent.click(screen.getByRole('button', { name: 'VERIFY' }));

beforeEach(() => {
  resetCurrentUserForTests();
  clearCookies();
  nav = captureNavigation();
  toasts.length = 0;
  offToasts = on('toast:show', ({ text }) => toasts.push(text));
});

afterEach(() => {
  cleanup();
  nav.off();
  offToasts();
  vi.unstubAllGlobals();
});

describe('UPI IDs', () => {
  it('deletes a UPI ID only after the confirmation', async () => {
    const deleted: unknown[] = [];
    openPayments({
      '/api/profile/saved-vpas': { vpas: [fixtures.savedVpa(), fixtures.savedVpa({ vpaAddress: 'asha@upi', paas_id: 'vpa_2' })] },
      '/api/profile/delete-vpa': (_url: URL, init?: RequestInit) => (deleted.push(bodyOf(init)), { paas_id: 'vpa_1', deleted: true }),
    });
    const first = await row('saved-vpa', 'asha@okbank');

    fireEvent.click(within(first).getByRole('button', { name: 'DELETE' }));
    expect(screen.getByRole('alertdialog').textContent).toContain('Are you sure you want to delete this upi address?');
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'CANCEL' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getAllByTestId('saved-vpa')).toHaveLength(2);
    expect(deleted).toEqual([]);

    fireEvent.click(within(first).getByRole('button', { name: 'DELETE' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'DELETE' }));
    await waitFor(() => expect(screen.getAllByTestId('saved-vpa')).toHaveLength(1));
    expect(screen.getByTestId('saved-vpa').textContent).toContain('asha@upi');
    expect(deleted).toEqual([expect.objectContaining({ vpa: 'asha@okbank', paas_id: 'vpa_1' })]);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(toasts).toEqual([]);
  });

  it("keeps the UPI ID and shows the edge's message when the delete fails", async () => {
    openPayments({
      '/api/profile/saved-vpas': { vpas: [fixtures.savedVpa()] },
      '/api/profile/delete-vpa': reply(404, 404, 'UPI ID not found'),
    });

    fireEvent.click(within(await screen.findByTestId('saved-vpa')).getByRole('button', { name: 'DELETE' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'DELETE' }));
    await waitFor(() => expect(toasts).toEqual(['UPI ID not found']));
    expect(screen.getAllByTestId('saved-vpa')).toHaveLength(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

describe('wallets', () => {
  it('lists every wallet get-methods offers, linked ones with their balance', async () => {
    openPayments({ '/api/profile/linked-wallets': { wallets: [fixtures.wallet({ linked: true, balance: 25050 })] } });

    const wallets = await screen.findAllByTestId('wallet');
    expect(wallets.map((w) => w.textContent)).toEqual(['PaytmBalance: ₹250.50ADD MONEYDELINK', 'PhonePeNot linkedLINK']);
  });

  it('links a wallet with the OTP the provider sent, then shows its balance', async () => {
    const linkedWith: unknown[] = [];
    openPayments({
      '/api/payment/wallet/link': (_url: URL, init?: RequestInit) => (linkedWith.push(bodyOf(init)), { walletCode: 'PHONEPE', otpSent: true, linked: false }),
      '/api/payment/wallet/validate-otp': (_url: URL, init?: RequestInit) =>
        bodyOf(init).otp === '123456'
          ? fixtures.wallet({ walletCode: 'PHONEPE', name: 'PhonePe', linked: true, balance: 50000 })
          : reply(400, 1, 'The OTP you entered is incorrect'),
    });

    fireEvent.click(within(await row('wallet', 'PhonePe')).getByRole('button', { name: 'LINK' }));
    await waitFor(() => expect(otpInput()).toBeTruthy());
    expect(linkedWith).toEqual([expect.objectContaining({ walletCode: 'PHONEPE' })]);

    verify();
    expect(screen.getByRole('alert').textContent).toBe('Please enter the OTP.');

    fireEvent.change(otpInput(), { target: { value: '111111' } });
    verify();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('The OTP you entered is incorrect'));
    expect((await row('wallet', 'PhonePe')).textContent).toContain('Not linked');

    fireEvent.change(otpInput(), { target: { value: '123456' } });
    verify();
    await waitFor(async () => expect((await row('wallet', 'PhonePe')).textContent).toBe('PhonePeBalance: ₹500ADD MONEYDELINK'));
    expect(screen.queryByPlaceholderText('Enter 6-digit OTP')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('closes the OTP form on CANCEL, leaving the wallet not linked', async () => {
    openPayments({ '/api/payment/wallet/link': { walletCode: 'PAYTM', otpSent: true, linked: false } });
    const paytm = await row('wallet', 'Paytm');

    fireEvent.click(within(paytm).getByRole('button', { name: 'LINK' }));
    await waitFor(() => expect(otpInput()).toBeTruthy());
    fireEvent.click(within(paytm).getByRole('button', { name: 'CANCEL' }));
    expect(screen.queryByPlaceholderText('Enter 6-digit OTP')).toBeNull();
    expect(paytm.textContent).toBe('PaytmNot linkedLINK');
  });

  it('shows the balance at once when the provider links without an OTP', async () => {
    openPayments({
      '/api/payment/wallet/link': { walletCode: 'PAYTM', otpSent: false, linked: true },
      '/api/payment/wallet/check-balance': (url: URL) => fixtures.wallet({ walletCode: url.searchParams.get('walletCode')!, linked: true, balance: 7500 }),
    });
    const paytm = await row('wallet', 'Paytm');

    fireEvent.click(within(paytm).getByRole('button', { name: 'LINK' }));
    await waitFor(() => expect(paytm.textContent).toBe('PaytmBalance: ₹75ADD MONEYDELINK'));
    expect(screen.queryByPlaceholderText('Enter 6-digit OTP')).toBeNull();
  });

  it('delinks a wallet only after the confirmation that names it', async () => {
    const delinked: unknown[] = [];
    openPayments({
      '/api/profile/linked-wallets': { wallets: [fixtures.wallet({ linked: true, balance: 10000 })] },
      '/api/payment/wallet/delink': (_url: URL, init?: RequestInit) => (delinked.push(bodyOf(init)), { walletCode: 'PAYTM', linked: false }),
    });
    const paytm = await row('wallet', 'Paytm');

    fireEvent.click(within(paytm).getByRole('button', { name: 'DELINK' }));
    expect(screen.getByRole('alertdialog').textContent).toContain('Are you sure you want to delink Paytm account?');
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'CANCEL' }));
    expect(paytm.textContent).toContain('Balance: ₹100');
    expect(delinked).toEqual([]);

    fireEvent.click(within(paytm).getByRole('button', { name: 'DELINK' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'DELINK' }));
    await waitFor(() => expect(paytm.textContent).toBe('PaytmNot linkedLINK'));
    expect(delinked).toEqual([expect.objectContaining({ walletCode: 'PAYTM' })]);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it("keeps the wallet linked and shows the edge's message when the delink fails", async () => {
    openPayments({
      '/api/profile/linked-wallets': { wallets: [fixtures.wallet({ linked: true, balance: 10000 })] },
      '/api/payment/wallet/delink': reply(503, 1, 'We could not reach Paytm. Please try again in a moment'),
    });
    const paytm = await row('wallet', 'Paytm');

    fireEvent.click(within(paytm).getByRole('button', { name: 'DELINK' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'DELINK' }));
    await waitFor(() => expect(toasts).toEqual(['We could not reach Paytm. Please try again in a moment']));
    expect(paytm.textContent).toContain('Balance: ₹100');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('shows wallets and pay-later as not linked when their status calls fail, not an error', async () => {
    openPayments({
      '/api/profile/linked-wallets': reply(503, 1, 'We could not reach Paytm. Please try again in a moment'),
      '/api/payment/paylater/check-linked': reply(503, 1, 'We could not reach LazyPay. Please try again in a moment'),
    });

    const wallets = await screen.findAllByTestId('wallet');
    expect(wallets.map((w) => w.textContent)).toEqual(['PaytmNot linkedLINK', 'PhonePeNot linkedLINK']);
    expect((await screen.findByTestId('pay-later')).textContent).toContain('Not linked');
    expect(within(screen.getByTestId('pay-later')).getByRole('button', { name: 'LINK' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(toasts).toEqual([]);
  });
});

describe('pay later', () => {
  it('links pay-later with an OTP, resending it once, then shows the available limit', async () => {
    const calls: string[] = [];
    openPayments({
      '/api/payment/paylater/link': () => (calls.push('link'), { walletCode: 'lazypay', otpSent: true, linked: false }),
      '/api/payment/paylater/resend-otp': () => (calls.push('resend'), { walletCode: 'lazypay', otpSent: true, linked: false }),
      '/api/payment/paylater/validate-otp': (_url: URL, init?: RequestInit) =>
        bodyOf(init).otp === '123456' ? fixtures.payLater({ linked: true, meta: { availableLimit: 500000 } }) : reply(400, 1, 'The OTP you entered is incorrect'),
    });
    const payLater = await screen.findByTestId('pay-later');
    expect(payLater.textContent).toBe('LazyPayNot linkedLINK');

    fireEvent.click(within(payLater).getByRole('button', { name: 'LINK' }));
    await waitFor(() => expect(otpInput()).toBeTruthy());
    fireEvent.click(within(payLater).getByRole('button', { name: 'Resend OTP' }));
    await waitFor(() => expect(calls).toEqual(['link', 'resend']));

    fireEvent.change(otpInput(), { target: { value: '123456' } });
    verify();
    await waitFor(() => expect(payLater.textContent).toBe('LazyPayAvailable limit: ₹5,000DELINK'));
  });

  it('delinks pay-later only after the confirmation that names it', async () => {
    let delinks = 0;
    openPayments({
      '/api/payment/paylater/check-linked': fixtures.payLater({ linked: true, meta: { availableLimit: 250000 } }),
      '/api/payment/paylater/delink': () => (delinks++, { walletCode: 'lazypay', linked: false }),
    });
    const payLater = await screen.findByTestId('pay-later');
    expect(payLater.textContent).toContain('Available limit: ₹2,500');

    fireEvent.click(within(payLater).getByRole('button', { name: 'DELINK' }));
    expect(screen.getByRole('alertdialog').textContent).toContain('Are you sure you want to delink LazyPay account?');
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'CANCEL' }));
    expect(delinks).toBe(0);

    fireEvent.click(within(payLater).getByRole('button', { name: 'DELINK' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'DELINK' }));
    await waitFor(() => expect(payLater.textContent).toBe('LazyPayNot linkedLINK'));
    expect(delinks).toBe(1);
  });
});

describe('kept between visits', () => {
  it('asks for UPI IDs, wallets and pay-later once, and shows a change made on the first visit', async () => {
    const asked: string[] = [];
    const count = (path: string, data: unknown) => () => (asked.push(path), data);
    const { rerender } = openPayments({
      '/api/profile/saved-vpas': count('saved-vpas', { vpas: [fixtures.savedVpa(), fixtures.savedVpa({ vpaAddress: 'asha@upi', paas_id: 'vpa_2' })] }),
      '/api/profile/linked-wallets': count('linked-wallets', { wallets: [] }),
      '/api/payment/paylater/check-linked': count('check-linked', fixtures.payLater()),
      '/api/profile/delete-vpa': { paas_id: 'vpa_1', deleted: true },
    });
    fireEvent.click(within(await row('saved-vpa', 'asha@okbank')).getByRole('button', { name: 'DELETE' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'DELETE' }));
    await waitFor(() => expect(screen.getAllByTestId('saved-vpa')).toHaveLength(1));
    await screen.findByTestId('pay-later');

    rerender(<App route={{ id: 'account', pageType: 'ACCOUNT', params: { tab: 'favourites' } }} path="/my-account/favourites" />);
    await waitFor(() => expect(screen.queryByTestId('saved-vpa')).toBeNull());
    rerender(<App route={{ id: 'account', pageType: 'ACCOUNT', params: { tab: 'payments' } }} path="/my-account/payments" />);

    expect((await screen.findAllByTestId('saved-vpa')).map((r) => r.textContent)).toEqual(['asha@upiDELETE']);
    expect((await screen.findAllByTestId('wallet')).map((w) => w.textContent)).toEqual(['PaytmNot linkedLINK', 'PhonePeNot linkedLINK']);
    expect(asked.sort()).toEqual(['check-linked', 'linked-wallets', 'saved-vpas']);
  });
});

describe('Adding money to a wallet', () => {
  const paytm = (balance: number) => ({ '/api/profile/linked-wallets': { wallets: [fixtures.wallet({ linked: true, balance })] } });
  /** The top-up's payment as the edge shows it. */
  const payment = (status: string, amount: number, failure_reason = '') => ({
    payment_id: 'pay_1',
    status,
    amount,
    refunded: 0,
    failure_reason,
    next_action: status === 'PENDING_VBV' ? 'APPROVE_IN_UPI_APP' : 'NONE',
    redirect_url: '',
    poll_interval_ms: status === 'PENDING_VBV' ? 5 : 0,
    expires_at: '',
    tiffin_money_paise: 0,
  });
  /** A top-up paid and added: the wallet at `balance`. */
  const added = (balance: number, amount: number) => ({
    wallet: fixtures.wallet({ linked: true, balance }),
    added: true,
    payment: payment('CHARGED', amount),
  });

  async function openAddMoney(amount: string, vpa = 'asha@upi') {
    const wallet = await row('wallet', 'Paytm');
    fireEvent.click(within(wallet).getByRole('button', { name: 'ADD MONEY' }));
    const form = within(wallet).getByRole('group', { name: 'Add money to Paytm' });
    fireEvent.change(within(form).getByLabelText('Amount (₹)'), { target: { value: amount } });
    fireEvent.change(within(form).getByLabelText('Pay by UPI ID'), { target: { value: vpa } });
    return { wallet, form };
  }

  it('tops up with a key of its own, shows the new balance, and the next top-up has a new key', async () => {
    const sent: Record<string, unknown>[] = [];
    let balance = 10000;
    openPayments({
      ...paytm(balance),
      '/api/payment/wallet/add-money': (_url: URL, init?: RequestInit) => {
        const body = bodyOf(init);
        sent.push(body);
        balance += body.amount as number;
        return added(balance, body.amount as number);
      },
    });
    const { wallet, form } = await openAddMoney('250.50');
    fireEvent.click(within(form).getByRole('button', { name: 'ADD' }));
    await waitFor(() => expect(wallet.textContent).toBe('PaytmBalance: ₹350.50ADD MONEYDELINK'));
    expect(toasts).toEqual(['₹250.50 added to Paytm.']);

    const again = await openAddMoney('100');
    fireEvent.click(within(again.form).getByRole('button', { name: 'ADD' }));
    await waitFor(() => expect(wallet.textContent).toContain('Balance: ₹450.50'));
    expect(sent).toEqual([
      expect.objectContaining({ walletCode: 'PAYTM', amount: 25050, vpa: 'asha@upi', idempotency_key: expect.any(String) }),
      expect.objectContaining({ walletCode: 'PAYTM', amount: 10000, vpa: 'asha@upi', idempotency_key: expect.any(String) }),
    ]);
    expect(sent[1]!.idempotency_key).not.toBe(sent[0]!.idempotency_key);
  });

  it('resends the same key when the top-up got no answer, and a new one after a refusal', async () => {
    const keys: unknown[] = [];
    let answer: 'none' | 'refuse' | 'ok' = 'none';
    const fetch = installFakeEdge({
      ...noPaymentAccounts,
      '/api/payment/get-methods': methods,
      '/api/profile/saved-cards': { cards: [] },
      '/api/profile/money': { balance: 0, transactions: [], hasMoreTxns: false },
      ...paytm(10000),
      '/api/payment/wallet/add-money': () => (answer === 'refuse' ? reply(503, 1, 'We could not reach Paytm. Please try again in a moment') : added(20000, 10000)),
    });
    const answerOf = fetch.getMockImplementation()!;
    fetch.mockImplementation(async (input: string, init?: RequestInit) => {
      if (String(input).includes('wallet/add-money')) {
        keys.push(JSON.parse(String(init?.body)).idempotency_key);
        if (answer === 'none') throw new TypeError('Failed to fetch');
      }
      return answerOf(input, init);
    });
    setCurrentUser(asha);
    render(<App route={{ id: 'account', pageType: 'ACCOUNT', params: { tab: 'payments' } }} path="/my-account/payments" />);

    const { wallet, form } = await openAddMoney('100');
    fireEvent.click(within(form).getByRole('button', { name: 'ADD' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Please check your internet connection and try again.');
    const unanswered = keys.length;
    expect(new Set(keys).size).toBe(1);

    answer = 'refuse';
    fireEvent.click(within(form).getByRole('button', { name: 'ADD' }));
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toBe('We could not reach Paytm. Please try again in a moment'));
    expect(keys[unanswered]).toBe(keys[0]);

    answer = 'ok';
    const refused = keys.length;
    fireEvent.click(within(form).getByRole('button', { name: 'ADD' }));
    await waitFor(() => expect(wallet.textContent).toContain('Balance: ₹200'));
    expect(keys[refused]).not.toBe(keys[0]);
  });

  it('adds the money only once the UPI payment is approved, following it with the same key', async () => {
    const keys: unknown[] = [];
    let asks = 0;
    openPayments({
      ...paytm(10000),
      '/api/payment/wallet/add-money': (_url: URL, init?: RequestInit) => {
        keys.push(bodyOf(init).idempotency_key);
        asks += 1;
        return asks < 3
          ? { wallet: fixtures.wallet({ linked: true, balance: 10000 }), added: false, payment: payment('PENDING_VBV', 5000) }
          : added(15000, 5000);
      },
    });
    const { wallet, form } = await openAddMoney('50');
    fireEvent.click(within(form).getByRole('button', { name: 'ADD' }));
    await waitFor(() => expect(wallet.textContent).toContain('Balance: ₹150'));
    expect(asks).toBe(3);
    expect(new Set(keys).size).toBe(1);
    expect(toasts).toEqual(['₹50 added to Paytm.']);
  });

  it('adds nothing when the payment fails, and says why', async () => {
    openPayments({
      ...paytm(10000),
      '/api/payment/wallet/add-money': () => ({
        wallet: fixtures.wallet({ linked: true, balance: 10000 }),
        added: false,
        payment: payment('AUTHORIZATION_FAILED', 5000, 'The payment was declined in your UPI app'),
      }),
    });
    const { wallet, form } = await openAddMoney('50');
    fireEvent.click(within(form).getByRole('button', { name: 'ADD' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('The payment was declined in your UPI app');
    expect(wallet.textContent).toContain('Balance: ₹100');
    expect(toasts).toEqual([]);
  });

  it('checks the amount before sending anything', async () => {
    const sent: unknown[] = [];
    openPayments({ ...paytm(10000), '/api/payment/wallet/add-money': () => (sent.push(1), added(10000, 0)) });
    const { form } = await openAddMoney('20000');
    fireEvent.click(within(form).getByRole('button', { name: 'ADD' }));
    expect(within(form).getByRole('alert').textContent).toBe('Enter an amount from ₹1 to ₹10,000.');
    expect(sent).toEqual([]);
  });
});
