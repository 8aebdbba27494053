import { fixtures, installFakeEdge, reply, type FakeEdgeTable } from '@tiffin/api-client/testing';
import * as cartStore from '@tiffin/cart-store';
import { getCurrentUser, on, resetCurrentUserForTests, setCurrentUser, setUserLocation, type SuperAvailability } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { asha, bodyOf, captureNavigation, clearCookies, DEC_1, MAR_1, notMember, subscription, superPlan, superStatus } from '../../test/fixtures';
import App from '../App';

const KORAMANGALA = { lat: 12.9352, lng: 77.6245, address: 'Koramangala, Bengaluru', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };
const JAIPUR = { lat: 26.9124, lng: 75.7873, address: 'C Scheme, Jaipur', area: 'C Scheme', mainText: 'C Scheme', city: 'jaipur' };

const monthly = superPlan({ planId: '1', title: '1 month', basePrice: 14900, finalPrice: 9900, discountDescription: 'Save ₹50 (33% off)', recommended: false, recommendedText: '', cta: { text: 'Join for ₹99' }, durationDays: 30 });
const quarterly = superPlan();

function available(overrides: Partial<SuperAvailability> = {}): SuperAvailability {
  return { plan: quarterly, available: true, reason: '', message: '', city: 'bangalore', cityName: 'Bengaluru', notifyRequested: false, ...overrides };
}

function openMembership(id: 'membership' | 'membership-confirm' = 'membership') {
  return render(<App route={{ id, pageType: 'MEMBERSHIP', params: {} }} path={id === 'membership' ? '/tiffin-one' : '/tiffin-one/confirm'} />);
}

/** The edge with the plans, the cart, and recorders for what the buying calls were sent. */
function membershipEdge(table: FakeEdgeTable = {}) {
  const sent = { availability: [] as URL[], add: [] as Record<string, unknown>[], notify: [] as { url: URL; body: Record<string, unknown> }[] };
  const fetch = installFakeEdge({
    '/api/super/plans': { type: 'plan-listing', plans: [monthly, quarterly] },
    '/api/cart': fixtures.emptyCart(),
    '/api/profile/super': notMember,
    ...table,
    '/api/super/available/1': (url: URL) => {
      sent.availability.push(url);
      return table['/api/super/available/1'] ?? available({ plan: monthly });
    },
    '/api/super/available/2': (url: URL) => {
      sent.availability.push(url);
      const answer = table['/api/super/available/2'];
      return typeof answer === 'function' ? (answer as (u: URL) => unknown)(url) : (answer ?? available());
    },
    '/api/cart/addSubscriptionToCart': (_url: URL, init?: RequestInit) => {
      sent.add.push(bodyOf(init));
      return table['/api/cart/addSubscriptionToCart'] ?? fixtures.emptyCart();
    },
    '/api/super/notify/2': (url: URL, init?: RequestInit) => {
      sent.notify.push({ url, body: bodyOf(init) });
      return { notification: { planId: '2', planTitle: '3 months', city: 'jaipur', cityName: 'Jaipur', requestedAt: DEC_1 }, created: true };
    },
  });
  return { fetch, sent };
}

function planCard(name: RegExp | string) {
  return screen.findByRole('listitem', { name });
}

let nav: ReturnType<typeof captureNavigation>;

beforeEach(() => {
  resetCurrentUserForTests();
  clearCookies();
  nav = captureNavigation();
});

afterEach(() => {
  cleanup();
  nav.off();
  cartStore.resetCart();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the plans', () => {
  it('shows every field of each plan: name, days, prices, discount, benefits, the badge and the call to action', async () => {
    membershipEdge();
    openMembership();
    const card = await planCard('Tiffin One 3 months');
    expect(within(card).getByRole('heading', { name: '3 months' })).toBeTruthy();
    expect(card.textContent).toContain('Tiffin One · 90 days');
    expect(card.querySelector('s')?.textContent).toBe('₹447');
    expect(card.textContent).toContain('₹199');
    expect(card.textContent).toContain('Save ₹248 (55% off)');
    expect(card.textContent).toContain('Most popular');
    expect(within(card).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Free delivery on orders above ₹199', 'Extra discounts of up to 30%']);
    expect(within(card).getByRole('button', { name: 'Join for ₹199' })).toBeTruthy();
    expect(card.querySelector('img')?.getAttribute('src')).toBe('/images/tiffin-one?w=96&h=96');

    const other = await planCard('Tiffin One 1 month');
    expect(other.textContent).not.toContain('Most popular');
    expect(within(other).getByRole('button', { name: 'Join for ₹99' })).toBeTruthy();
  });
});

describe('buying a plan', () => {
  it('checks the plan where the customer is, puts it in the cart and opens /checkout/super', async () => {
    setUserLocation(KORAMANGALA);
    setCurrentUser(asha);
    const { sent } = membershipEdge();
    openMembership();
    fireEvent.click(within(await planCard('Tiffin One 3 months')).getByRole('button', { name: 'Join for ₹199' }));

    await waitFor(() => expect(nav.targets).toEqual(['/checkout/super']));
    expect(sent.availability.map((u) => `${u.pathname}${u.search}`)).toEqual(['/api/super/available/2?lat=12.9352&lng=77.6245']);
    expect(sent.add).toEqual([expect.objectContaining({ subscriptionItems: [{ plan_id: '2', quantity: 1 }] })]);
  });

  it('asks a guest to log in, and buys the plan they chose once they have', async () => {
    setUserLocation(KORAMANGALA);
    const opened: string[] = [];
    const off = on('auth:open', ({ mode }) => opened.push(mode));
    const { sent } = membershipEdge();
    openMembership();
    fireEvent.click(within(await planCard('Tiffin One 3 months')).getByRole('button', { name: 'Join for ₹199' }));
    expect(opened).toEqual(['login']);
    expect(sent.availability).toEqual([]);

    act(() => setCurrentUser(asha));
    await waitFor(() => expect(nav.targets).toEqual(['/checkout/super']));
    expect(sent.add).toHaveLength(1);
    off();
  });

  it('offers "notify me" where the plan is not sold, and says the request was kept', async () => {
    setUserLocation(JAIPUR);
    setCurrentUser(asha);
    const { sent } = membershipEdge({
      '/api/super/available/2': available({ available: false, reason: 'NOT_IN_CITY', message: 'Tiffin One is not sold in Jaipur yet.', city: 'jaipur', cityName: 'Jaipur' }),
    });
    openMembership();
    const card = await planCard('Tiffin One 3 months');
    fireEvent.click(within(card).getByRole('button', { name: 'Join for ₹199' }));
    expect((await within(card).findByRole('alert')).textContent).toContain('Tiffin One is not sold in Jaipur yet.');
    expect(sent.add).toEqual([]);

    fireEvent.click(within(card).getByRole('button', { name: 'NOTIFY ME' }));
    await waitFor(() => expect(within(card).getByRole('status').textContent).toBe('We will let you know when 3 months of Tiffin One is sold in Jaipur. Asked on 1 Dec 2026.'));
    expect(sent.notify.map((n) => [n.url.pathname, n.body.lat, n.body.lng])).toEqual([['/api/super/notify/2', 26.9124, 75.7873]]);
    expect(nav.targets).toEqual([]);
  });

  it('says a request made before is kept, without asking again', async () => {
    setUserLocation(JAIPUR);
    setCurrentUser(asha);
    membershipEdge({
      '/api/super/available/2': available({ available: false, reason: 'NOT_IN_CITY', message: 'Tiffin One is not sold in Jaipur yet.', city: 'jaipur', cityName: 'Jaipur', notifyRequested: true }),
    });
    openMembership();
    const card = await planCard('Tiffin One 3 months');
    fireEvent.click(within(card).getByRole('button', { name: 'Join for ₹199' }));
    await waitFor(() => expect(within(card).getByRole('status').textContent).toBe('We will let you know when 3 months of Tiffin One is sold in Jaipur.'));
    expect(within(card).queryByRole('button', { name: 'NOTIFY ME' })).toBeNull();
  });

  it.each([
    ['LONGER_PLAN', 'Your 12 months plan runs until it ends; a shorter plan cannot be added to it.'],
    ['WITHDRAWN', 'This Tiffin One plan is no longer sold.'],
  ] as const)('shows the reason for %s and puts nothing in the cart', async (reason, message) => {
    setUserLocation(KORAMANGALA);
    setCurrentUser(asha);
    const { sent } = membershipEdge({ '/api/super/available/2': available({ available: false, reason, message }) });
    openMembership();
    const card = await planCard('Tiffin One 3 months');
    fireEvent.click(within(card).getByRole('button', { name: 'Join for ₹199' }));
    expect((await within(card).findByRole('alert')).textContent).toBe(message);
    expect(within(card).queryByRole('button', { name: 'NOTIFY ME' })).toBeNull();
    expect(sent.add).toEqual([]);
    expect(nav.targets).toEqual([]);
  });

  it("shows the cart's refusal of a plan (SUPER invalid now) and stays", async () => {
    setUserLocation(KORAMANGALA);
    setCurrentUser(asha);
    membershipEdge({ '/api/cart/addSubscriptionToCart': reply(200, 21, 'SUPER invalid now') });
    openMembership();
    const card = await planCard('Tiffin One 3 months');
    fireEvent.click(within(card).getByRole('button', { name: 'Join for ₹199' }));
    expect((await within(card).findByRole('alert')).textContent).toBe('SUPER invalid now');
    expect(nav.targets).toEqual([]);
  });
});

describe('a member on the membership page', () => {
  it('sees their plan and its end date instead of the pitch, and extends with a plan', async () => {
    setUserLocation(KORAMANGALA);
    setCurrentUser({ ...asha, optional_map: { super_status: 'SUPER' } });
    const { sent } = membershipEdge({ '/api/profile/super': superStatus() });
    openMembership();
    const summary = await screen.findByTestId('membership-summary');
    expect(summary.textContent).toContain('You are a Tiffin One member');
    expect(summary.textContent).toContain('Tiffin One · 3 months');
    expect(summary.textContent).toContain('Member until 1 Mar 2027');
    expect(summary.textContent).toContain('You have saved ₹123 with Tiffin One.');
    expect(screen.queryByRole('list', { name: 'Tiffin One plans' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'EXTEND' }));
    const plans = screen.getByRole('list', { name: 'Plans to extend with' });
    fireEvent.click(within(plans).getByRole('button', { name: 'EXTEND BY 3 MONTHS' }));
    await waitFor(() => expect(nav.targets).toEqual(['/checkout/super']));
    expect(sent.add).toHaveLength(1);
  });
});

describe('the confirmation', () => {
  it('shows what was bought, its start and end and its benefits, and tells every app the customer is a member', async () => {
    window.history.replaceState(null, '', '/tiffin-one/confirm?order_id=5001');
    setCurrentUser(asha);
    membershipEdge({ '/api/profile/super': superStatus(), '/api/profile/info': { ...asha, optional_map: { super_status: 'SUPER' } } });
    openMembership('membership-confirm');
    const bought = await screen.findByTestId('membership-bought');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Welcome to Tiffin One');
    expect(bought.textContent).toContain('Tiffin One · 3 months');
    expect(bought.textContent).toContain('Starts1 Dec 2026');
    expect(bought.textContent).toContain('Ends1 Mar 2027');
    expect(bought.textContent).toContain('Paid₹199');
    expect(within(screen.getByRole('list', { name: 'Your benefits' })).getAllByRole('listitem')).toHaveLength(2);
    await waitFor(() => expect(getCurrentUser()?.optional_map).toEqual({ super_status: 'SUPER' }));
    window.history.replaceState(null, '', '/');
  });

  it('asks again until the plan bought with the order shows up', async () => {
    window.history.replaceState(null, '', '/tiffin-one/confirm?order_id=5002');
    setCurrentUser(asha);
    let reads = 0;
    membershipEdge({
      '/api/profile/super': () => {
        reads += 1;
        // The first read still shows only the plan before; the order's plan follows it.
        return reads < 2 ? superStatus() : superStatus({ upcoming: [subscription({ subscriptionId: 's2', orderId: '5002', startsAt: MAR_1, endsAt: MAR_1 + 90 * 86400 })], memberUntil: MAR_1 + 90 * 86400 });
      },
      '/api/profile/info': asha,
    });
    openMembership('membership-confirm');
    expect(screen.getByRole('status').textContent).toBe('Activating your Tiffin One membership…');
    const bought = await screen.findByTestId('membership-bought', {}, { timeout: 3000 });
    expect(bought.textContent).toContain('Starts1 Mar 2027');
    expect(reads).toBe(2);
    window.history.replaceState(null, '', '/');
  });

  it('sends someone not signed in to the plans', () => {
    membershipEdge();
    openMembership('membership-confirm');
    expect(nav.targets).toEqual(['/tiffin-one']);
  });
});
