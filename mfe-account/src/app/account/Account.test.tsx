import { installFakeEdge, fixtures, reply } from '@tiffin/api-client/testing';
import { getCurrentUser, getUserLocation, on, resetCurrentUserForTests, setCurrentUser } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { address, asha, bodyOf, captureNavigation, clearCookies, noPaymentAccounts } from '../../test/fixtures';
import App from '../App';
import { pageLoad } from './DeleteAccount';

// The address form's map stands in for Leaflet (which jsdom cannot draw); the form's own tests
// live with it in @tiffin/address-form.
vi.mock('@tiffin/map/pin-map', () => import('@tiffin/map/testing/pin-map'));

function openAccount(tab?: string, subtab?: string) {
  const params: Record<string, string> = {};
  if (tab) params.tab = tab;
  if (subtab) params.subtab = subtab;
  const path = ['/my-account', tab, subtab].filter(Boolean).join('/');
  return render(<App route={{ id: 'account', pageType: 'ACCOUNT', params }} path={path} />);
}

let nav: ReturnType<typeof captureNavigation>;
const toasts: string[] = [];
let offToasts: () => void;

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
  vi.useRealTimers();
});

describe('account routes', () => {
  it('sends a visitor who is not logged in home', () => {
    installFakeEdge({});
    const { container } = openAccount('orders');
    expect(nav.targets).toEqual(['/']);
    expect(container.textContent).toBe('');
  });

  it('shows the delete-account subtab to a visitor, with a login button', () => {
    installFakeEdge({});
    const opened: string[] = [];
    const off = on('auth:open', ({ mode }) => opened.push(mode));
    openAccount('settings', 'delete-account');
    fireEvent.click(screen.getByRole('button', { name: 'LOGIN' }));
    off();
    expect(nav.targets).toEqual([]);
    expect(screen.getByText('Delete your Tiffin account')).toBeTruthy();
    expect(opened).toEqual(['login']);
  });

  it("redirects the tab 'offers' to /offers", () => {
    installFakeEdge({});
    setCurrentUser(asha);
    openAccount('offers');
    expect(nav.targets).toEqual(['/offers']);
  });

  it('lists the sections in the left navigation and shows the user', async () => {
    installFakeEdge({ '/api/order/all': { orders: [], total_orders: 0 } });
    setCurrentUser(asha);
    openAccount();
    const links = within(screen.getByRole('navigation', { name: 'Account sections' })).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['Orders', 'Tiffin One', 'Favourites', 'Payments', 'Addresses', 'Settings']);
    expect(links[0]!.getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Asha Rao');
    expect(await screen.findByText("You haven't placed any order yet.")).toBeTruthy();
  });
});

describe('orders', () => {
  const order = (id: string, status: string) => ({ order_id: id, order_status: status, restaurant_name: `Restaurant ${id}`, order_total: 24900 });

  it('splits active and past orders and pages with Show More Orders', async () => {
    const pages: string[] = [];
    installFakeEdge({
      '/api/order/all': (url: URL) => {
        const after = url.searchParams.get('order_id');
        pages.push(after ?? 'first');
        return after ? { orders: [order('o3', 'DELIVERED')], total_orders: 3 } : { orders: [order('o1', 'PREPARING'), order('o2', 'DELIVERED')], total_orders: 3 };
      },
    });
    setCurrentUser(asha);
    openAccount('orders');

    expect((await screen.findAllByTestId('order')).map((o) => o.textContent)).toEqual([expect.stringContaining('Restaurant o1')]);
    fireEvent.click(screen.getByRole('tab', { name: 'Past Orders' }));
    expect(screen.getAllByTestId('order').map((o) => o.textContent)).toEqual([expect.stringContaining('Restaurant o2')]);

    fireEvent.click(screen.getByRole('button', { name: 'Show More Orders' }));
    await waitFor(() => expect(screen.getAllByTestId('order')).toHaveLength(2));
    expect(pages).toEqual(['first', 'o2']);
    expect(screen.queryByRole('button', { name: 'Show More Orders' })).toBeNull();
    expect(screen.getByText('To view older orders, please use Tiffin App')).toBeTruthy();
  });

  it('shows the empty state without orders', async () => {
    installFakeEdge({ '/api/order/all': { orders: [], total_orders: 0 } });
    setCurrentUser(asha);
    openAccount('orders');
    expect(await screen.findByRole('region', { name: 'No Orders' })).toBeTruthy();
    expect(screen.getByText("You haven't placed any order yet.")).toBeTruthy();
  });
});

describe('favourites', () => {
  it('asks with the stored location and links each restaurant to its menu', async () => {
    const asked: string[] = [];
    installFakeEdge({ '/api/profile/favourites': (url: URL) => (asked.push(url.search), { restaurants: [fixtures.restaurant()] }) });
    document.cookie = `userLocation=${encodeURIComponent(JSON.stringify({ lat: 12.9, lng: 77.6, address: 'K', area: 'K', mainText: 'K', city: 'bangalore' }))}; Path=/`;
    setCurrentUser(asha);
    openAccount('favourites');
    const card = await screen.findByTestId('favourite');
    expect(within(card).getByRole('link').getAttribute('href')).toBe('/restaurants/meghana-biryani-house-koramangala-1042');
    expect(card.textContent).toContain('Meghana Biryani House');
    expect(asked).toEqual(['?lat=12.9&lng=77.6']);
  });

  it('shows the empty state', async () => {
    installFakeEdge({ '/api/profile/favourites': { restaurants: [] } });
    setCurrentUser(asha);
    openAccount('favourites');
    expect(await screen.findByText('Where is the love?')).toBeTruthy();
    expect(screen.getByText('Once you favourite a restaurant, it will appear here.')).toBeTruthy();
  });
});

// The Tiffin One tab's states are in TiffinOne.test.tsx.

describe('payments', () => {
  const txn = (n: number, overrides: Parameters<typeof fixtures.moneyTransaction>[0] = {}) =>
    fixtures.moneyTransaction({ transaction_id: `txn_${n}`, description: `Remark ${n}`, ...overrides });
  const page = (from: number, count: number) => Array.from({ length: count }, (_, i) => txn(from + i));

  it('lists the saved cards and Tiffin Money', async () => {
    // Only Date is faked, so whether a card has expired does not depend on the day the test runs.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T12:00:00Z'));
    installFakeEdge({
      ...noPaymentAccounts,
      '/api/profile/saved-cards': { cards: [fixtures.savedCard(), fixtures.savedCard({ card_reference: 'card_2', network: 'MASTERCARD', last4: '5454', expiry_month: 1, expiry_year: 2020 })] },
      '/api/profile/money': {
        balance: 123450,
        transactions: [txn(1), txn(2, { direction: 'DEBIT', amount: 4950, balance_after: 20050, description: 'Paid for order 5002', created_at: '2026-11-21T20:00:00Z' })],
        hasMoreTxns: false,
      },
    });
    setCurrentUser(asha);
    openAccount('payments');

    const cards = await screen.findAllByTestId('saved-card');
    expect(cards.map((c) => c.textContent)).toEqual([
      expect.stringMatching(/^Visa•••• 4242Expires 08\/29/),
      expect.stringMatching(/^Mastercard•••• 5454Expired 01\/20/),
    ]);
    expect(await screen.findByText('Balance: ₹1,234.50')).toBeTruthy();
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Date', 'Credit', 'Debit', 'Amount', 'Remarks']);
    const rows = screen.getAllByTestId('money-transaction').map((r) => within(r).getAllByRole('cell').map((c) => c.textContent));
    expect(rows).toEqual([
      ['20 Nov 2026', '₹100', '', '₹250', 'Remark 1'],
      ['22 Nov 2026', '', '₹49.50', '₹200.50', 'Paid for order 5002'],
    ]);
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it('deletes a card only after the confirmation', async () => {
    const deleted: unknown[] = [];
    installFakeEdge({
      ...noPaymentAccounts,
      '/api/profile/saved-cards': { cards: [fixtures.savedCard(), fixtures.savedCard({ card_reference: 'card_2', last4: '1111' })] },
      '/api/profile/delete-card': (_url: URL, init?: RequestInit) => (deleted.push(bodyOf(init).card_reference), { card_reference: 'card_1', deleted: true }),
      '/api/profile/money': { balance: 0, transactions: [], hasMoreTxns: false },
    });
    setCurrentUser(asha);
    openAccount('payments');
    const cards = await screen.findAllByTestId('saved-card');

    fireEvent.click(within(cards[0]!).getByRole('button', { name: 'DELETE' }));
    const confirm = screen.getByRole('alertdialog');
    expect(confirm.textContent).toContain('Are you sure you want to delete this card?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'CANCEL' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getAllByTestId('saved-card')).toHaveLength(2);
    expect(deleted).toEqual([]);

    fireEvent.click(within(cards[0]!).getByRole('button', { name: 'DELETE' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'DELETE' }));
    await waitFor(() => expect(screen.getAllByTestId('saved-card')).toHaveLength(1));
    expect(deleted).toEqual(['card_1']);
    expect(screen.getByTestId('saved-card').textContent).toContain('•••• 1111');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(toasts).toEqual([]);
  });

  it("keeps the card and shows the edge's message when the delete fails", async () => {
    installFakeEdge({
      ...noPaymentAccounts,
      '/api/profile/saved-cards': { cards: [fixtures.savedCard()] },
      '/api/profile/delete-card': reply(404, 404, 'Card not found'),
      '/api/profile/money': { balance: 0, transactions: [], hasMoreTxns: false },
    });
    setCurrentUser(asha);
    openAccount('payments');

    fireEvent.click(within(await screen.findByTestId('saved-card')).getByRole('button', { name: 'DELETE' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'DELETE' }));
    await waitFor(() => expect(toasts).toEqual(['Card not found']));
    expect(screen.getAllByTestId('saved-card')).toHaveLength(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('pages the money history with the last transaction_id, appending, until there is no more', async () => {
    const asked: string[] = [];
    installFakeEdge({
      ...noPaymentAccounts,
      '/api/profile/saved-cards': { cards: [] },
      '/api/profile/money': (url: URL) => {
        const after = url.searchParams.get('transaction_id');
        asked.push(after ?? 'first');
        return after ? { balance: 25000, transactions: page(11, 3), hasMoreTxns: false } : { balance: 25000, transactions: page(1, 10), hasMoreTxns: true };
      },
    });
    setCurrentUser(asha);
    openAccount('payments');

    await waitFor(() => expect(screen.getAllByTestId('money-transaction')).toHaveLength(10));
    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(screen.getAllByTestId('money-transaction')).toHaveLength(13));
    expect(asked).toEqual(['first', 'txn_10']);
    expect(screen.getAllByTestId('money-transaction').map((r) => r.lastElementChild!.textContent)).toEqual(page(1, 13).map((t) => t.description));
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });

  it("keeps the rows and Show more when a page fails, with the edge's message", async () => {
    installFakeEdge({
      ...noPaymentAccounts,
      '/api/profile/saved-cards': { cards: [] },
      '/api/profile/money': (url: URL) =>
        url.searchParams.get('transaction_id') ? reply(503, 777, "Something's broken") : { balance: 25000, transactions: page(1, 10), hasMoreTxns: true },
    });
    setCurrentUser(asha);
    openAccount('payments');

    fireEvent.click(await screen.findByRole('button', { name: 'Show more' }));
    expect((await screen.findByRole('alert')).textContent).toBe("Something's broken");
    expect(screen.getAllByTestId('money-transaction')).toHaveLength(10);
    expect(screen.getByRole('button', { name: 'Show more' })).toBeTruthy();
  });

  it('shows the empty states without cards, UPI IDs, wallets or Tiffin Money history', async () => {
    installFakeEdge({
      ...noPaymentAccounts,
      '/api/profile/saved-cards': { cards: [] },
      '/api/profile/money': { balance: 0, transactions: [], hasMoreTxns: false },
    });
    setCurrentUser(asha);
    openAccount('payments');
    expect(await screen.findByText('You have no saved cards.')).toBeTruthy();
    expect(await screen.findByText('You have no saved UPI IDs.')).toBeTruthy();
    expect(await screen.findByText('No wallets can be linked right now.')).toBeTruthy();
    expect(await screen.findByText('Balance: ₹0')).toBeTruthy();
    expect(screen.getByText('No Tiffin Money transactions yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
  });
});

describe('addresses', () => {
  const recommendation = {
    place_id: 'p1',
    formatted_address: '12 1st Cross, Koramangala, Bangalore',
    address_components: [],
    geometry: { location: { lat: 12.9352, lng: 77.6245 } },
    area: 'Koramangala',
    city: 'bangalore',
    main_text: 'Koramangala',
  };

  it('shows the empty state, then adds an address found by search', async () => {
    let saved: Record<string, unknown> | null = null;
    installFakeEdge({
      '/api/address/all': { addresses: [] },
      '/api/misc/place-autocomplete': [{ place_id: 'p1', description: 'Koramangala', structured_formatting: { main_text: 'Koramangala', secondary_text: 'Bangalore' }, terms: [], types: [] }],
      '/api/misc/address-recommend': [recommendation],
      '/api/address': (_url: URL, init?: RequestInit) => {
        saved = bodyOf(init);
        const created = address('a1', 'WORK', { address: 'Flat 7, 12 1st Cross, Koramangala, Bangalore', flat_no: 'Flat 7' });
        return { address: created, addresses: [created] };
      },
    });
    setCurrentUser(asha);
    openAccount('manage_addresses');
    expect(await screen.findByText("Can't find a door to knock")).toBeTruthy();
    expect(screen.getByText("You don't have an address to deliver.")).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'ADD NEW ADDRESS' }));
    const panel = screen.getByRole('dialog', { name: 'Save delivery address' });
    fireEvent.click(within(panel).getByRole('button', { name: /SAVE ADDRESS/ }));
    expect(within(panel).getByRole('alert').textContent).toBe('Please select a location.');

    fireEvent.change(panel.querySelector('input[name="place"]')!, { target: { value: 'kora' } });
    fireEvent.click(await within(panel).findByRole('button', { name: /Koramangala/ }));
    expect((await within(panel).findByTestId('picked-place')).textContent).toBe('12 1st Cross, Koramangala, Bangalore');
    fireEvent.click(within(panel).getByRole('button', { name: /SAVE ADDRESS/ }));
    expect(within(panel).getByRole('alert').textContent).toBe('Please enter your flat number.');

    fireEvent.change(panel.querySelector('input[name="flat_no"]')!, { target: { value: 'Flat 7' } });
    fireEvent.change(panel.querySelector('input[name="landmark"]')!, { target: { value: 'Near Forum' } });
    fireEvent.click(within(panel).getByRole('radio', { name: 'Work' }));
    fireEvent.click(within(panel).getByRole('button', { name: /SAVE ADDRESS/ }));

    const card = await screen.findByTestId('address');
    expect(card.getAttribute('data-annotation')).toBe('WORK');
    expect(screen.queryByRole('dialog', { name: 'Save delivery address' })).toBeNull();
    expect(saved).toEqual({
      annotation: 'WORK',
      address: '12 1st Cross, Koramangala, Bangalore',
      area: 'Koramangala',
      city: 'bangalore',
      lat: 12.9352,
      lng: 77.6245,
      flat_no: 'Flat 7',
      landmark: 'Near Forum',
      instructions: '',
      _csrf: 'test-csrf',
    });
  });

  it("edits an address with its id and shows the edge's error", async () => {
    const bodies: Array<Record<string, unknown>> = [];
    installFakeEdge({
      '/api/address/all': { addresses: [address('h1', 'HOME')] },
      '/api/address': (_url: URL, init?: RequestInit) => (bodies.push(bodyOf(init)), reply(400, 1, 'Please enter your address.')),
    });
    setCurrentUser(asha);
    openAccount('manage_addresses');
    fireEvent.click(await screen.findByRole('button', { name: 'EDIT' }));
    const panel = screen.getByRole('dialog', { name: 'Edit address' });
    expect((panel.querySelector('input[name="flat_no"]') as HTMLInputElement).value).toBe('Flat h1');
    expect(within(panel).getByTestId('picked-place').textContent).toBe('12 1st Cross, Koramangala');
    fireEvent.click(within(panel).getByRole('button', { name: /SAVE ADDRESS/ }));

    expect((await within(panel).findByRole('alert')).textContent).toBe('Please enter your address.');
    expect(bodies[0]).toMatchObject({ id: 'h1', annotation: 'HOME', flat_no: 'Flat h1', address: '12 1st Cross, Koramangala' });
  });

  it('deletes after the confirmation and sets the delivery location with Deliver here', async () => {
    const deleted: unknown[] = [];
    installFakeEdge({
      '/api/address/all': { addresses: [address('w1', 'WORK'), address('h1', 'HOME')] },
      '/api/address/delete': (_url: URL, init?: RequestInit) => (deleted.push(bodyOf(init).id), { addresses: [address('h1', 'HOME')] }),
    });
    setCurrentUser(asha);
    openAccount('manage_addresses');
    const cards = await screen.findAllByTestId('address');
    expect(cards.map((c) => c.getAttribute('data-annotation'))).toEqual(['WORK', 'HOME']);

    fireEvent.click(within(cards[0]!).getByRole('button', { name: 'DELETE' }));
    const confirm = screen.getByRole('alertdialog');
    expect(confirm.textContent).toContain('Are you sure you want to delete this address?');
    fireEvent.click(within(confirm).getByRole('button', { name: 'CANCEL' }));
    expect(deleted).toEqual([]);
    fireEvent.click(within(cards[0]!).getByRole('button', { name: 'DELETE' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'DELETE' }));
    await waitFor(() => expect(screen.getAllByTestId('address')).toHaveLength(1));
    expect(deleted).toEqual(['w1']);

    const changes: unknown[] = [];
    const off = on('location:changed', (l) => changes.push(l));
    fireEvent.click(screen.getByRole('button', { name: 'DELIVER HERE' }));
    off();
    expect(getUserLocation()).toMatchObject({ id: 'h1', annotation: 'HOME', lat: 12.9352, lng: 77.6245, area: 'Koramangala' });
    expect(changes).toHaveLength(1);
  });
});

describe('settings', () => {
  it('keeps order SMS on and disabled, saves a toggle and keeps it in the user', async () => {
    const sent: unknown[] = [];
    installFakeEdge({
      '/api/profile/update-notification-preference': (_url: URL, init?: RequestInit) => (
        sent.push(bodyOf(init).sms), { preferences: { sms: { orders: true, recommendations: true, reminders: true } } }
      ),
    });
    setCurrentUser(asha);
    openAccount('settings');
    const orders = screen.getByRole('switch', { name: 'Order related SMS' }) as HTMLButtonElement;
    expect(orders.getAttribute('aria-checked')).toBe('true');
    expect(orders.disabled).toBe(true);

    const reminders = screen.getByRole('switch', { name: 'Reminders' });
    expect(reminders.getAttribute('aria-checked')).toBe('false');
    expect(reminders.className).not.toContain('acct-toggle--on');
    fireEvent.click(reminders);
    expect(reminders.getAttribute('aria-checked')).toBe('true');
    await waitFor(() => expect(getCurrentUser()?.preferences.sms.reminders).toBe(true));
    expect(reminders.className).toContain('acct-toggle--on');
    expect(sent).toEqual([{ reminders: true }]);
  });

  it("flips back and says 'Unable to save preference. Please try again' on failure", async () => {
    installFakeEdge({ '/api/profile/update-notification-preference': reply(503, 777, "Something's broken") });
    setCurrentUser(asha);
    openAccount('settings');
    const recommendations = screen.getByRole('switch', { name: 'Recommendations & Promotions' });
    fireEvent.click(recommendations);
    expect(recommendations.getAttribute('aria-checked')).toBe('false');
    await waitFor(() => expect(recommendations.getAttribute('aria-checked')).toBe('true'));
    expect(toasts).toEqual(['Unable to save preference. Please try again']);
  });
});

describe('profile', () => {
  it('changes the mobile number with an OTP: Update Successful', async () => {
    const bodies: Record<string, unknown[]> = { send: [], verify: [] };
    installFakeEdge({
      '/api/profile/update-mobile': (_url: URL, init?: RequestInit) => (bodies.send!.push(bodyOf(init).mobile), { mobile: '9123456780', resendAfterSeconds: 30, expiresInSeconds: 600 }),
      '/api/profile/verify-otp': (_url: URL, init?: RequestInit) => (bodies.verify!.push(bodyOf(init)), { ...asha, mobile: '9123456780' }),
    });
    setCurrentUser(asha);
    openAccount('profile');
    expect(screen.getByTestId('profile-mobile').textContent).toContain('9876543210');
    fireEvent.click(within(screen.getByTestId('profile-mobile')).getByRole('button', { name: 'CHANGE' }));
    const form = screen.getByRole('form', { name: 'Change mobile number' });
    fireEvent.change(form.querySelector('input[name="new-mobile"]')!, { target: { value: '9123456780' } });
    fireEvent.click(within(form).getByRole('button', { name: 'SEND OTP' }));
    const otp = await within(form).findByPlaceholderText('Enter 6-digit OTP');
    fireEvent.click(within(form).getByRole('button', { name: 'VERIFY' }));
    expect(within(form).getByRole('alert').textContent).toBe('Please enter the OTP.');
    fireEvent.change(otp, { target: { value: '654321' } });
    fireEvent.click(within(form).getByRole('button', { name: 'VERIFY' }));

    expect(await screen.findByText('Update Successful')).toBeTruthy();
    expect(screen.getByTestId('profile-mobile').textContent).toContain('9123456780');
    expect(bodies.send).toEqual(['9123456780']);
    expect(bodies.verify).toEqual([{ mobile: '9123456780', otp: '654321', _csrf: 'test-csrf' }]);
  });

  it('changes the email: pending until the link is opened', async () => {
    installFakeEdge({ '/api/profile/update-email': (_url: URL, init?: RequestInit) => ({ ...asha, pendingEmail: bodyOf(init).email }) });
    setCurrentUser(asha);
    openAccount('profile');
    fireEvent.click(within(screen.getByTestId('profile-email')).getByRole('button', { name: 'CHANGE' }));
    const form = screen.getByRole('form', { name: 'Change email' });
    fireEvent.change(form.querySelector('input[name="new-email"]')!, { target: { value: 'not-an-email' } });
    fireEvent.click(within(form).getByRole('button', { name: 'VERIFY EMAIL' }));
    expect(within(form).getByRole('alert').textContent).toBe('Please enter a valid email address.');
    fireEvent.change(form.querySelector('input[name="new-email"]')!, { target: { value: 'asha.new@example.com' } });
    fireEvent.click(within(form).getByRole('button', { name: 'VERIFY EMAIL' }));

    expect((await screen.findByTestId('pending-email')).textContent).toContain('A verification link has been sent to asha.new@example.com');
    expect(screen.getByTestId('profile-email').textContent).toContain('asha@example.com');
  });

  it('verifies the email link with its token and shows the result', async () => {
    const tokens: unknown[] = [];
    installFakeEdge({ '/api/profile/verify-email': (_url: URL, init?: RequestInit) => (tokens.push(bodyOf(init).token), { email: 'asha.new@example.com' }) });
    window.history.replaceState(null, '', '/my-account/verify-email?token=abc123');
    openAccount('verify-email');
    expect(await screen.findByText('Your email asha.new@example.com is verified.')).toBeTruthy();
    expect(tokens).toEqual(['abc123']);
    expect(nav.targets).toEqual([]);
  });

  it('says when the link has expired', async () => {
    installFakeEdge({ '/api/profile/verify-email': reply(400, 1, 'This link has expired.') });
    window.history.replaceState(null, '', '/my-account/verify-email?token=old');
    openAccount('verify-email');
    expect(await screen.findByText('This link has expired.')).toBeTruthy();
  });
});

describe('delete account', () => {
  it('deletes after confirming, forgets the delivery address and loads home afresh', async () => {
    const calls: string[] = [];
    installFakeEdge({ '/api/profile/delete-account': () => (calls.push('delete'), null) });
    const home = vi.spyOn(pageLoad, 'home').mockImplementation(() => {});
    document.cookie = 'deliveryAddressId=a1; Path=/';
    setCurrentUser(asha);
    openAccount('settings', 'delete-account');
    fireEvent.click(screen.getByRole('button', { name: 'DELETE MY ACCOUNT' }));
    expect(calls).toEqual([]);
    await act(async () => fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'DELETE' })));

    await waitFor(() => expect(home).toHaveBeenCalledOnce());
    expect(calls).toEqual(['delete']);
    expect(document.cookie).not.toContain('deliveryAddressId');
  });
});
