import { fixtures, installFakeEdge, installFakeEventSource, reply, type FakeReply } from '@tiffin/api-client/testing';
import { resetCurrentUserForTests, setCurrentUser, type Tracking } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { asha, recordNavigation } from '../../test/checkout-fakes';
import App from '../App';

// The page is under test here, not Leaflet: the stand-in map writes what it was asked to draw
// (the real map's tests are in @tiffin/map).
vi.mock('@tiffin/map/tracking-map', () => import('@tiffin/map/testing/tracking-map'));

const details = fixtures.tracking().order_status_details;
const mapDetails = fixtures.tracking().map_details;

/** A snapshot with another status, its words and, when given, where the rider is. */
function snapshot(status: Tracking['order_status'], tag: string, overrides: Partial<Tracking> = {}, rider?: { latitude: number; longitude: number }): Tracking {
  return fixtures.tracking({
    order_status: status,
    status_code: status,
    order_status_details: { ...details, status_tag_text: tag, status_message: '' },
    map_details: rider ? { ...mapDetails, rider: { ...mapDetails.rider!, location: rider } } : mapDetails,
    ...overrides,
  });
}

let navigation: ReturnType<typeof recordNavigation>;
let streams: ReturnType<typeof installFakeEventSource>;

/**
 * Installs the edge answering trackV2 from `answers` in turn (the last one again once they run
 * out) and signs Asha in; returns how many times trackV2 was asked.
 */
function trackingEdge(answers: Array<Tracking | FakeReply>, { signedIn = true } = {}) {
  const asked: string[] = [];
  installFakeEdge({
    '/api/cart': fixtures.emptyCart(),
    '/api/order/trackV2': (url: URL) => {
      asked.push(url.search);
      return answers.length > 1 ? answers.shift() : answers[0];
    },
  });
  streams = installFakeEventSource();
  if (signedIn) setCurrentUser(asha);
  return asked;
}

function openTracking(orderId = '123', path = `/track-order/${orderId}`) {
  return render(<App route={{ id: 'track-order', pageType: 'TRACKING', params: { orderId } }} path={path} />);
}

/** Lets due timers fire and every answer that follows them land. */
async function wait(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

const mapShown = () => screen.getByTestId('tracking-map');

beforeEach(() => {
  navigation = recordNavigation();
});

afterEach(() => {
  navigation.off();
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  resetCurrentUserForTests();
});

describe('order tracking', () => {
  it('shows the status and its line, the ETA, the map, the history, the restaurant to call and the ways on', async () => {
    const asked = trackingEdge([fixtures.tracking()]);
    openTracking();

    expect(await screen.findByRole('heading', { name: 'Preparing' })).toBeTruthy();
    const page = screen.getByRole('region', { name: 'Order tracking' });
    expect(within(page).getByRole('heading', { name: 'Order #123' })).toBeTruthy();
    expect(page.textContent).toContain('Meghana Foods is preparing your order');
    expect(page.querySelector('.chk-track__eta')!.textContent).toBe('Arriving in 24 minsYour food is being prepared');
    expect((await screen.findByTestId('tracking-map')).dataset).toMatchObject({ rider: '12.93,77.62', route: '3', connector: 'true' });
    const history = within(screen.getByRole('list', { name: 'Order status' })).getAllByRole('listitem');
    expect(history.map((step) => step.textContent)).toEqual(['Order placed8:30 pm', 'Accepted by the restaurant8:31 pm', 'Being prepared8:33 pm']);
    expect(page.textContent).toContain('For help and queries, please contact the restaurant');
    expect(within(page).getByRole('link', { name: 'Call +918041234567' }).getAttribute('href')).toBe('tel:+918041234567');
    expect(within(page).getByRole('link', { name: 'Order details' }).getAttribute('href')).toBe('/my-account/orders/123');
    expect(within(page).getByRole('link', { name: 'Help' }).getAttribute('href')).toBe('/support?order_id=123');
    expect(asked).toEqual(['?order_id=123']);
    expect(streams.opened.map((s) => s.url)).toEqual(['/api/order/track-stream?order_id=123']);
  });

  it('is the same page at /order-track/{id}', async () => {
    trackingEdge([fixtures.tracking({ order_id: '555' })]);
    openTracking('555', '/order-track/555');
    expect(await screen.findByRole('heading', { name: 'Order #555' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Order details' }).getAttribute('href')).toBe('/my-account/orders/555');
  });

  it("says the restaurant is yet to confirm an order it has received when there is no message", async () => {
    trackingEdge([snapshot('PLACED', 'Order Received', { order_status_details: { ...details, status_tag_text: 'Order Received', status_message: '', messages: [] } })]);
    openTracking();
    expect(await screen.findByRole('heading', { name: 'Order Received' })).toBeTruthy();
    expect(screen.getByText('We are waiting for the restaurant to confirm your order')).toBeTruthy();
  });

  it('shows a cancelled order as Order Cancelled with its icon, without an ETA', async () => {
    trackingEdge([
      snapshot('CANCELLED', 'Order Cancelled', { terminal: true, configuration: { polling_interval_seconds: 0 }, order_status_details: { ...details, status_tag_text: 'Order Cancelled', eta_text: '', eta_subtext: '' } }),
    ]);
    openTracking();
    expect(await screen.findByRole('heading', { name: 'Order Cancelled' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Cancelled' })).toBeTruthy();
    expect(screen.queryByText('Arriving in')).toBeNull();
  });

  it('says Something went wrong!!! when the first load fails, and loads again on Retry', async () => {
    const asked = trackingEdge([reply(500, 1, 'Oops'), fixtures.tracking()]);
    openTracking();
    expect((await screen.findByRole('alert')).textContent).toContain('Something went wrong!!!');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Preparing' })).toBeTruthy();
    expect(screen.queryByText('Something went wrong!!!')).toBeNull();
    expect(asked).toHaveLength(2);
  });

  it('sends a visitor who is not signed in home without asking for the order', () => {
    const asked = trackingEdge([fixtures.tracking()], { signedIn: false });
    const { container } = openTracking();
    expect(navigation.to).toEqual(['/']);
    expect(container.querySelector('[data-mfe="mfe-checkout"]')!.textContent).toBe('');
    expect(asked).toEqual([]);
    expect(streams.opened).toEqual([]);
  });

  it('sends the customer home when the session has ended (401)', async () => {
    trackingEdge([reply(401, 999, 'Please login')]);
    openTracking();
    await vi.waitFor(() => expect(navigation.to).toEqual(['/']));
    expect(streams.opened[0]!.closed).toBe(true);
  });
});

describe('order tracking: keeping up', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  });

  it('asks again after the interval the snapshot names, and after 30 s when it names none', async () => {
    const unnamed = { ...fixtures.tracking(), configuration: undefined } as unknown as Tracking;
    const asked = trackingEdge([fixtures.tracking({ configuration: { polling_interval_seconds: 10 } }), unnamed, fixtures.tracking()]);
    openTracking();
    await wait(0);
    expect(asked).toHaveLength(1);

    await wait(9_999);
    expect(asked).toHaveLength(1);
    await wait(1);
    expect(asked).toHaveLength(2);

    await wait(29_999);
    expect(asked).toHaveLength(2);
    await wait(1);
    expect(asked).toHaveLength(3);
  });

  it('asks only every 60 s when the interval is 0 or less and the order is not final', async () => {
    const asked = trackingEdge([fixtures.tracking({ configuration: { polling_interval_seconds: 0 } }), fixtures.tracking({ configuration: { polling_interval_seconds: -1 } })]);
    openTracking();
    await wait(59_999);
    expect(asked).toHaveLength(1);
    await wait(1);
    expect(asked).toHaveLength(2);
    await wait(59_999);
    expect(asked).toHaveLength(2);
    await wait(1);
    expect(asked).toHaveLength(3);
  });

  it('stops polling and closes the stream once the order is final', async () => {
    const asked = trackingEdge([fixtures.tracking(), snapshot('DELIVERED', 'Order Delivered', { terminal: true, configuration: { polling_interval_seconds: 0 } })]);
    openTracking();
    await wait(30_000);
    expect(asked).toHaveLength(2);
    expect(screen.getByRole('heading', { name: 'Order Delivered' })).toBeTruthy();
    expect(streams.opened[0]!.closed).toBe(true);

    await wait(10 * 60_000);
    expect(asked).toHaveLength(2);
  });

  it('shows a stream snapshot at once, asks at once when the stream ends, and keeps polling', async () => {
    const asked = trackingEdge([
      fixtures.tracking(),
      snapshot('ARRIVING', 'Arriving', {}, { latitude: 12.928, longitude: 77.627 }),
    ]);
    openTracking();
    await wait(0);
    expect(mapShown().dataset.rider).toBe('12.93,77.62');

    act(() => streams.opened[0]!.send('tracking', snapshot('PICKED_UP', 'Picked Up', {}, { latitude: 12.931, longitude: 77.624 })));
    expect(screen.getByRole('heading', { name: 'Picked Up' })).toBeTruthy();
    expect(mapShown().dataset.rider).toBe('12.931,77.624');
    expect(asked).toHaveLength(1);

    // The edge ends the stream (its longest lifetime, or it was refused): the page asks at once.
    act(() => streams.opened[0]!.fail());
    expect(streams.opened[0]!.closed).toBe(true);
    await wait(0);
    expect(asked).toHaveLength(2);
    expect(screen.getByRole('heading', { name: 'Arriving' })).toBeTruthy();
    expect(mapShown().dataset.rider).toBe('12.928,77.627');

    // And polls on at the interval, one chain of polls only; the stream is not reopened.
    await wait(29_000);
    expect(asked).toHaveLength(2);
    await wait(1_000);
    expect(asked).toHaveLength(3);
    expect(streams.opened).toHaveLength(1);
  });

  it('stops everything when the page goes away', async () => {
    const asked = trackingEdge([fixtures.tracking()]);
    const { unmount } = openTracking();
    await wait(0);
    unmount();
    expect(streams.opened[0]!.closed).toBe(true);
    await wait(5 * 60_000);
    expect(asked).toHaveLength(1);
  });
});
