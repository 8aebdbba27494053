import { fixtures, installFakeEdge, reply, type FakeEdgeTable } from '@tiffin/api-client/testing';
import * as cartStore from '@tiffin/cart-store';
import { resetCurrentUserForTests, setCurrentUser, setUserLocation } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { asha, bodyOf, captureNavigation, clearCookies, DEC_1, MAR_1, notMember, subscription, superPlan, superStatus } from '../../test/fixtures';
import App from '../App';

const member = { ...asha, optional_map: { super_status: 'SUPER' } };

function openTab() {
  return render(<App route={{ id: 'account', pageType: 'ACCOUNT', params: { tab: 'super' } }} path="/my-account/super" />);
}

function edgeWith(table: FakeEdgeTable) {
  const sent = { cancel: 0, add: [] as Record<string, unknown>[] };
  installFakeEdge({
    '/api/super/notify': { notifications: [] },
    '/api/super/plans': { type: 'plan-listing', plans: [superPlan({ planId: '1', title: '1 month', finalPrice: 9900 }), superPlan()] },
    '/api/cart': fixtures.emptyCart(),
    '/api/super/available/2': { plan: superPlan(), available: true, reason: '', message: '', city: 'bangalore', cityName: 'Bengaluru', notifyRequested: false },
    ...table,
    '/api/super/cancel': () => {
      sent.cancel += 1;
      return table['/api/super/cancel'] ?? superStatus({ renews: false, current: subscription({ renews: false }) });
    },
    '/api/cart/addSubscriptionToCart': (_url: URL, init?: RequestInit) => {
      sent.add.push(bodyOf(init));
      return fixtures.emptyCart();
    },
  });
  return sent;
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
});

describe('/my-account/super', () => {
  it("shows a member's status, plan, start and end, savings so far and what comes next", async () => {
    setCurrentUser(member);
    edgeWith({
      '/api/profile/super': superStatus({ upcoming: [subscription({ subscriptionId: 's2', title: '1 month', startsAt: MAR_1, endsAt: MAR_1 + 30 * 86400 })], memberUntil: MAR_1 + 30 * 86400 }),
    });
    openTab();
    const status = await screen.findByTestId('membership-status');
    expect(status.textContent).toBe('Status: Active (SUPER)');
    const card = status.parentElement!;
    expect(within(card).getByRole('heading', { name: 'Tiffin One · 3 months' })).toBeTruthy();
    expect(card.textContent).toContain('Started1 Dec 2026');
    expect(card.textContent).toContain('Renews on31 Mar 2027');
    expect(card.textContent).toContain('Saved so far₹123');
    expect(within(screen.getByRole('list', { name: 'Plans after this one' })).getByRole('listitem').textContent).toBe('1 month: 1 Mar 2027 to 31 Mar 2027');
    expect(card.textContent).toContain('Membership fees are non-refundable.');
  });

  it('cancels after saying the fee is not refunded and the benefits last to the end date', async () => {
    setCurrentUser(member);
    const sent = edgeWith({ '/api/profile/super': superStatus() });
    openTab();
    fireEvent.click(await screen.findByRole('button', { name: 'CANCEL MEMBERSHIP' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain('Cancel Tiffin One? It will not renew, and your benefits stay until 1 Mar 2027. Membership fees are non-refundable.');
    expect(sent.cancel).toBe(0);

    fireEvent.click(within(dialog).getByRole('button', { name: 'YES, CANCEL' }));
    expect(await screen.findByText('Cancelled: it will not renew. Your benefits stay until 1 Mar 2027.')).toBeTruthy();
    expect(sent.cancel).toBe(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.queryByRole('button', { name: 'CANCEL MEMBERSHIP' })).toBeNull();
    expect(screen.getByTestId('membership-status').parentElement!.textContent).toContain('Ends on1 Mar 2027');
  });

  it('keeps the membership as it was when cancelling fails, and says why', async () => {
    setCurrentUser(member);
    edgeWith({ '/api/profile/super': superStatus(), '/api/super/cancel': reply(503, 14, 'Tiffin One is unavailable right now. Please try again.') });
    openTab();
    fireEvent.click(await screen.findByRole('button', { name: 'CANCEL MEMBERSHIP' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'YES, CANCEL' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Tiffin One is unavailable right now. Please try again.');
    expect(screen.getByTestId('membership-status').textContent).toBe('Status: Active (SUPER)');
  });

  it('renews by buying the same plan again through /checkout/super', async () => {
    setUserLocation({ lat: 12.9352, lng: 77.6245, address: 'Koramangala', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' });
    setCurrentUser(member);
    const sent = edgeWith({ '/api/profile/super': superStatus() });
    openTab();
    fireEvent.click(await screen.findByRole('button', { name: 'RENEW' }));
    await waitFor(() => expect(nav.targets).toEqual(['/checkout/super']));
    expect(sent.add).toEqual([expect.objectContaining({ subscriptionItems: [{ plan_id: '2', quantity: 1 }] })]);
  });

  it('tells a past member when it ended and offers to rejoin', async () => {
    setCurrentUser({ ...asha, optional_map: { super_status: 'WAS_SUPER' } });
    edgeWith({ '/api/profile/super': { status: 'WAS_SUPER', current: null, upcoming: [], memberUntil: DEC_1, savings: 4500, renews: false } });
    openTab();
    const status = await screen.findByTestId('membership-status');
    expect(status.textContent).toBe('Status: Ended (WAS_SUPER)');
    expect(screen.getByText('Your Tiffin One membership ended on 1 Dec 2026.')).toBeTruthy();
    expect(screen.getByText('It saved you ₹45.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'REJOIN TIFFIN ONE' }).getAttribute('href')).toBe('/tiffin-one');
  });

  it('leads someone who was never a member to /tiffin-one with the plans in short', async () => {
    setCurrentUser(asha);
    edgeWith({ '/api/profile/super': notMember });
    openTab();
    expect((await screen.findByTestId('membership-status')).getAttribute('data-status')).toBe('NOT_SUPER');
    expect(await screen.findByText('Plans from ₹99')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'EXPLORE TIFFIN ONE' }).getAttribute('href')).toBe('/tiffin-one');
  });

  it('lists the "notify me" requests', async () => {
    setCurrentUser(asha);
    edgeWith({
      '/api/profile/super': notMember,
      '/api/super/notify': { notifications: [{ planId: '2', planTitle: '3 months', city: 'jaipur', cityName: 'Jaipur', requestedAt: DEC_1 }] },
    });
    openTab();
    const requests = await screen.findByRole('region', { name: 'Notify me requests' });
    expect(within(requests).getByRole('listitem').textContent).toBe('3 months in Jaipur, asked on 1 Dec 2026');
  });

  it('says the membership could not be read, and reads it again on Retry', async () => {
    setCurrentUser(member);
    let reads = 0;
    edgeWith({
      '/api/profile/super': () => {
        reads += 1;
        return reads === 1 ? reply(503, 14, 'Tiffin One is unavailable right now.') : superStatus();
      },
    });
    openTab();
    fireEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    expect((await screen.findByTestId('membership-status')).textContent).toBe('Status: Active (SUPER)');
    expect(reads).toBe(2);
  });
});
