import { fixtures, installFakeEdge, reply } from '@tiffin/api-client/testing';
import type { UserLocation } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OffersPage, offersTab } from './OffersPage';
import { offerDay } from './PaymentOffers';

const koramangala: UserLocation = { lat: 12.9352, lng: 77.6245, address: 'Koramangala', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'clipboard');
});

describe('OffersPage', () => {
  it('sends a missing or unknown tab to the restaurant offers', () => {
    expect(offersTab(undefined)).toEqual({ redirect: '/offers/restaurant' });
    expect(offersTab('nonsense')).toEqual({ redirect: '/offers/restaurant' });
    expect(offersTab('payment')).toEqual({ tab: 'payment' });
  });

  it('lists restaurants with offers near the location, asking the edge for offers only', async () => {
    const fetch = installFakeEdge({
      '/api/restaurants/list/update': {
        totalRestaurants: 1,
        pageIndex: 0,
        pageOffset: { offset: 0, nextOffset: null },
        serviceability: 'SERVICEABLE',
        cards: [{ type: 'RESTAURANT', data: fixtures.restaurant() }],
        closedCards: [],
      },
    });
    render(<OffersPage tab="restaurant" location={koramangala} />);

    expect(await screen.findByText('Meghana Biryani House')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Offers for you' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Offers near you' })).toBeTruthy();
    expect(JSON.parse(String(fetch.mock.calls[0]![1]!.body))).toMatchObject({ filters: { offers: true }, offset: 0 });
  });
});

describe('OffersPage: payment offers and coupons', () => {
  /** A clipboard that records what was written, or refuses (a page without clipboard access). */
  function stubClipboard({ refuse = false } = {}) {
    const written: string[] = [];
    const writeText = vi.fn(async (text: string) => {
      if (refuse) throw new DOMException('Write permission denied.', 'NotAllowedError');
      written.push(text);
    });
    // jsdom has no clipboard: this one is the page's for the test (removed after each).
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    return written;
  }

  it("lists the payment offers with their tags, terms and whether they are used, then the coupons, asking for the location's offers", async () => {
    const fetch = installFakeEdge({ '/api/offers/payment': fixtures.paymentOffers() });
    render(<OffersPage tab="payment" location={koramangala} />);

    const offers = await screen.findByRole('list', { name: 'Payment offers' });
    expect(fetch.mock.calls.map(([url]) => String(url))).toEqual(['/api/offers/payment?lat=12.9352&lng=77.6245']);
    expect(screen.getByRole('heading', { name: 'Payment offers' })).toBeTruthy();

    const hdfc = within(offers).getByRole('listitem', { name: '10% off with HDFC Bank cards' });
    expect(hdfc.textContent).toContain('Up to ₹100 off on orders above ₹299 paid with an HDFC Bank credit or debit card');
    expect(within(hdfc).getByRole('list', { name: 'Terms' }).textContent).toContain('Min cart amount ₹299');
    expect(within(hdfc).getByText('Valid till 31 Mar 2027')).toBeTruthy();
    expect(within(hdfc).queryByText('Used')).toBeNull();
    const tag = within(hdfc).getByText('10% OFF').parentElement as HTMLElement;
    expect(tag.textContent).toBe('10% OFFUPTO ₹100');
    expect(tag.style.background).toBe('rgb(0, 76, 143)');
    expect(tag.style.color).toBe('rgb(255, 255, 255)');

    const mobikwik = within(offers).getByRole('listitem', { name: '15% off with MobiKwik' });
    expect(within(mobikwik).getByText('Used')).toBeTruthy();

    const coupons = screen.getByRole('list', { name: 'Coupons' });
    const upi = within(coupons).getByRole('listitem', { name: 'UPI50' });
    expect(upi.textContent).toContain('₹50 OFF WITH UPI');
    expect(upi.textContent).toContain('Use UPI50 | above ₹299, paying by UPI');
    expect(upi.textContent).toContain('Min cart amount ₹299');
    // This coupon does not end, so it has no last day.
    expect(upi.textContent).not.toContain('Valid till');
    expect(within(upi).getByText('₹50 OFF')).toBeTruthy();
  });

  it("shows a coupon's last day when it has one", async () => {
    installFakeEdge({
      '/api/offers/payment': fixtures.paymentOffers({ payment_offers: [], coupons: [fixtures.platformCoupon({ code: 'WELCOME60', valid_till: '2027-01-15' })] }),
    });
    render(<OffersPage tab="payment" location={koramangala} />);
    const coupon = await screen.findByRole('listitem', { name: 'WELCOME60' });
    expect(coupon.textContent).toContain('Valid till 15 Jan 2027');
    expect(screen.queryByRole('list', { name: 'Payment offers' })).toBeNull();
  });

  it("copies a coupon's code and says it is copied", async () => {
    const written = stubClipboard();
    installFakeEdge({
      '/api/offers/payment': fixtures.paymentOffers({ coupons: [fixtures.platformCoupon(), fixtures.platformCoupon({ code: 'TIFFIN20', title: '20% OFF' })] }),
    });
    render(<OffersPage tab="payment" location={koramangala} />);
    const upi = await screen.findByRole('listitem', { name: 'UPI50' });
    const tiffin = screen.getByRole('listitem', { name: 'TIFFIN20' });

    await act(async () => fireEvent.click(within(upi).getByRole('button', { name: 'Copy code' })));
    expect(written).toEqual(['UPI50']);
    expect(within(upi).getByRole('button', { name: 'Copied' })).toBeTruthy();
    expect(within(tiffin).getByRole('button', { name: 'Copy code' })).toBeTruthy();

    await act(async () => fireEvent.click(within(tiffin).getByRole('button', { name: 'Copy code' })));
    expect(written).toEqual(['UPI50', 'TIFFIN20']);
    expect(within(tiffin).getByRole('button', { name: 'Copied' })).toBeTruthy();
    expect(within(upi).getByRole('button', { name: 'Copy code' })).toBeTruthy();
  });

  it('gives the code to copy by hand when the browser will not copy it', async () => {
    stubClipboard({ refuse: true });
    installFakeEdge({ '/api/offers/payment': fixtures.paymentOffers() });
    render(<OffersPage tab="payment" location={koramangala} />);
    const upi = await screen.findByRole('listitem', { name: 'UPI50' });
    await act(async () => fireEvent.click(within(upi).getByRole('button', { name: 'Copy code' })));
    expect(within(upi).getByRole('button', { name: 'Copy code' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('We could not copy the code. Your code is UPI50.');
  });

  it('shows a skeleton while loading, then an error with a retry that asks again', async () => {
    let fail = true;
    installFakeEdge({ '/api/offers/payment': () => (fail ? reply(500, 1, 'Oops') : fixtures.paymentOffers()) });
    render(<OffersPage tab="payment" location={koramangala} />);
    expect(screen.getByTestId('payment-offers-loading')).toBeTruthy();

    const failure = await screen.findByRole('alert');
    expect(within(failure).getByRole('heading', { name: 'Uh-oh!' })).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Payment offers' })).toBeNull();
    fail = false;
    fireEvent.click(within(failure).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('list', { name: 'Payment offers' })).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Coupons' })).toBeTruthy();
  });

  it('says so when there is no offer and no coupon', async () => {
    installFakeEdge({ '/api/offers/payment': fixtures.paymentOffers({ payment_offers: [], coupons: [] }) });
    render(<OffersPage tab="payment" location={koramangala} />);
    expect(await screen.findByRole('region', { name: 'No offers right now' })).toBeTruthy();
  });

  it("reads an offer's last day as India's day", () => {
    expect(offerDay('2027-03-31')).toBe('31 Mar 2027');
    expect(offerDay('not a day')).toBe('not a day');
  });
});
