import type { MfeId, RemoteAppProps } from '@tiffin/contract';
import { emit, navigate, resetCurrentUserForTests, setCurrentUser, setUserLocation, showToast, type User } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RemoteLoader } from '../federation/RemoteBoundary';
import { resetInitialStateForTests } from '../initial-state';
import { installFakeEdge } from '../test/fake-edge';
import { App } from './App';

type Remotes = Partial<Record<string, ComponentType<any> | Error>>;

/** A loader that serves fake remotes by "mfe/Expose" and records every attempt. */
function fakeLoader(remotes: Remotes) {
  const attempts: Array<{ id: string; retry: boolean }> = [];
  const loader: RemoteLoader = async (mfe: MfeId, expose, { retry }) => {
    const id = `${mfe}/${expose}`;
    attempts.push({ id, retry });
    const remote = remotes[id];
    if (!remote) throw new Error(`${id} unavailable`);
    if (remote instanceof Error) throw remote;
    return { default: remote } as never;
  };
  return { loader, attempts };
}

function PageRemote(name: string) {
  return function Remote({ route, path }: RemoteAppProps) {
    return (
      <div data-testid="remote">
        {name}:{route.id}:{route.pageType}:{path}:{JSON.stringify(route.params)}
      </div>
    );
  };
}

function go(path: string) {
  window.history.replaceState(null, '', path);
}

beforeEach(() => {
  installFakeEdge();
  vi.spyOn(console, 'error').mockImplementation(() => {});
  document.cookie = 'userLocation=; Max-Age=0; Path=/';
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('routing and composition', () => {
  it('mounts the owning remote with the matched route and path', async () => {
    go('/restaurants/meghana-biryani-1042');
    const { loader } = fakeLoader({ 'mfe-discovery/App': PageRemote('discovery') });
    render(<App loader={loader} />);

    expect(await screen.findByTestId('remote')).toHaveProperty(
      'textContent',
      'discovery:menu:MENU:/restaurants/meghana-biryani-1042:{"slug":"meghana-biryani","restaurantId":"1042"}',
    );
    expect(document.title).toBe('Meghana Biryani menu | Tiffin');
  });

  it('keeps header and footer when a remote fails, and Retry loads it again', async () => {
    go('/cart');
    const remotes: Remotes = { 'mfe-cart/App': new Error('404 remoteEntry.js') };
    const { loader, attempts } = fakeLoader(remotes);
    render(<App loader={loader} />);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Sorry! This should not have happened. Please retry.');
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();

    remotes['mfe-cart/App'] = PageRemote('cart');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));

    expect((await screen.findByTestId('remote')).textContent).toContain('cart:cart:CART');
    expect(attempts).toEqual([
      { id: 'mfe-cart/App', retry: false },
      { id: 'mfe-cart/App', retry: true },
    ]);
  });

  it('contains a remote that throws while rendering; other routes still work', async () => {
    go('/checkout');
    const Crashing = () => {
      throw new Error('render bug');
    };
    const { loader } = fakeLoader({ 'mfe-checkout/App': Crashing, 'mfe-cart/App': PageRemote('cart') });
    render(<App loader={loader} />);

    expect(await screen.findByRole('alert')).toBeTruthy();
    act(() => navigate('/cart'));

    expect((await screen.findByTestId('remote')).textContent).toContain('cart:cart:CART');
    expect(window.location.pathname).toBe('/cart');
  });

  it('shows the not-found page for unknown paths and GO HOME goes to /', async () => {
    go('/no/such/page');
    const { loader } = fakeLoader({ 'mfe-discovery/App': PageRemote('discovery') });
    render(<App loader={loader} />);

    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText("Uh-oh! Looks like the page you are trying to access, doesn't exist. Please start afresh.")).toBeTruthy();
    expect(document.title).toBe('Page not found | Tiffin');

    fireEvent.click(screen.getByRole('button', { name: 'GO HOME' }));

    expect(window.location.pathname).toBe('/');
    expect((await screen.findByTestId('remote')).textContent).toContain('discovery:home:HOME');
  });

  it('waits for the city list to decide city pages', async () => {
    go('/bangalore');
    const { loader } = fakeLoader({ 'mfe-discovery/App': PageRemote('discovery') });
    render(<App loader={loader} />);
    expect((await screen.findByTestId('remote')).textContent).toContain('discovery:city:CITY');
  });

  it("shows a one-word path the edge answered 404 as not found at once, loading no remote", () => {
    go('/atlantis');
    const script = document.createElement('script');
    script.id = 'tiffin-initial-state';
    script.type = 'application/json';
    script.textContent = JSON.stringify({ sid: 's', route: { path: '/atlantis', id: null } });
    document.head.append(script);
    resetInitialStateForTests();
    try {
      const { loader, attempts } = fakeLoader({ 'mfe-discovery/App': PageRemote('discovery') });
      render(<App loader={loader} />);

      // No city list yet (it is fetched in an effect): the edge's verdict alone decides.
      expect(screen.getByRole('heading', { name: 'Page not found' })).toBeTruthy();
      expect(attempts).toEqual([]);
    } finally {
      script.remove();
      resetInitialStateForTests();
    }
  });

  it('gives home the listing page type once a location is set', async () => {
    setUserLocation({ lat: 12.9, lng: 77.6, address: 'Koramangala, Bangalore', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' });
    go('/');
    const { loader } = fakeLoader({ 'mfe-discovery/App': PageRemote('discovery') });
    render(<App loader={loader} />);
    expect((await screen.findByTestId('remote')).textContent).toContain('discovery:home:LISTING');
    expect(screen.getByText('Koramangala', { selector: '.shell-location-bar__title' })).toBeTruthy();
  });
});

describe('header', () => {
  it('counts cart items from cart:updated and marks counts above 9', async () => {
    go('/cart');
    const { loader } = fakeLoader({ 'mfe-cart/App': PageRemote('cart') });
    render(<App loader={loader} />);
    await screen.findByTestId('remote');

    act(() => emit('cart:updated', { count: 12 }));

    const badge = screen.getByTestId('cart-badge');
    expect(badge.textContent).toBe('12');
    expect(badge.className).toContain('shell-cart-badge--many');
  });

  it('shows the count the page was served with, without asking for the cart, then follows cart:updated', async () => {
    go('/restaurants');
    const fetch = installFakeEdge({ '/api/cart': { cartItemsCount: 7, cartItems: [], restaurant_details: null, item_total: 0, cartId: 'c' } });
    const script = document.createElement('script');
    script.id = 'tiffin-initial-state';
    script.type = 'application/json';
    script.textContent = JSON.stringify({ sid: 's', cartCount: 3 });
    document.head.append(script);
    resetInitialStateForTests();
    try {
      const { loader } = fakeLoader({ 'mfe-discovery/App': PageRemote('discovery') });
      render(<App loader={loader} />);
      await screen.findByTestId('remote');
      expect(screen.getByTestId('cart-badge').textContent).toBe('3');
      expect(fetch.mock.calls.filter(([url]) => String(url).startsWith('/api/cart'))).toEqual([]);

      act(() => emit('cart:updated', { count: 4 }));
      expect(screen.getByTestId('cart-badge').textContent).toBe('4');
    } finally {
      script.remove();
      resetInitialStateForTests();
    }
  });

  it('asks for the cart when the page carries no count', async () => {
    go('/restaurants');
    installFakeEdge({ '/api/cart': { cartItemsCount: 7, cartItems: [], restaurant_details: null, item_total: 0, cartId: 'c' } });
    const { loader } = fakeLoader({ 'mfe-discovery/App': PageRemote('discovery') });
    render(<App loader={loader} />);
    await screen.findByTestId('remote');
    await waitFor(() => expect(screen.getByTestId('cart-badge').textContent).toBe('7'));
  });

  it('opens the cart flyout from mfe_cart/HeaderCart on hover', async () => {
    go('/cart');
    const { loader, attempts } = fakeLoader({ 'mfe-cart/App': PageRemote('cart'), 'mfe-cart/HeaderCart': () => <p>Your cart is empty</p> });
    render(<App loader={loader} />);
    await screen.findByTestId('remote');

    fireEvent.mouseEnter(screen.getByRole('link', { name: /Cart/ }).parentElement!);

    expect(await screen.findByText('Your cart is empty')).toBeTruthy();
    expect(attempts.map((a) => a.id)).toContain('mfe-cart/HeaderCart');
  });

  it('opens the auth sidebar from Login', async () => {
    go('/cart');
    const Sidebar = ({ open, mode }: { open: boolean; mode: string }) => <aside>{`sidebar ${mode} ${open ? 'open' : 'closed'}`}</aside>;
    const { loader } = fakeLoader({ 'mfe-cart/App': PageRemote('cart'), 'mfe-account/AuthSidebar': Sidebar });
    render(<App loader={loader} />);

    fireEvent.click(screen.getByRole('button', { name: 'Login' }));

    expect(await screen.findByText('sidebar login open')).toBeTruthy();
  });

  it("opens the location sidebar from the header's location bar; its onClose closes it", async () => {
    go('/restaurants');
    setUserLocation({ lat: 12.9352, lng: 77.6245, address: 'Koramangala, Bangalore', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' });
    const LocationSidebar = ({ open, onClose }: { open: boolean; onClose: () => void }) => (
      <aside>
        {`location sidebar ${open ? 'open' : 'closed'}`}
        <button type="button" onClick={onClose}>
          close location
        </button>
      </aside>
    );
    const { loader, attempts } = fakeLoader({ 'mfe-discovery/App': PageRemote('discovery'), 'mfe-discovery/LocationSidebar': LocationSidebar });
    render(<App loader={loader} />);
    await screen.findByTestId('remote');
    // Not loaded until someone asks for it.
    expect(attempts.map((a) => a.id)).not.toContain('mfe-discovery/LocationSidebar');

    fireEvent.click(screen.getByTestId('location-bar'));
    expect(await screen.findByText('location sidebar open')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'close location' }));
    expect(await screen.findByText('location sidebar closed')).toBeTruthy();

    // A later `location:open` from anyone (a hint, a page) opens it again.
    act(() => {
      emit('location:open', {});
    });
    expect(await screen.findByText('location sidebar open')).toBeTruthy();
  });
});

describe('toasts and offline banner', () => {
  it('shows a toast for 4000 ms by default and keeps one with a negative duration', async () => {
    go('/no/such/page');
    vi.useFakeTimers();
    render(<App loader={fakeLoader({}).loader} />);

    act(() => {
      showToast({ text: 'Added to cart', status: 'success' });
      showToast({ text: 'Sticky', duration: -1 });
    });
    expect(screen.getByText('Added to cart')).toBeTruthy();

    act(() => vi.advanceTimersByTime(4000));

    expect(screen.queryByText('Added to cart')).toBeNull();
    expect(screen.getByText('Sticky')).toBeTruthy();
  });

  it('shows a permanent offline banner and a reconnect banner that hides after 5 s', () => {
    go('/no/such/page');
    vi.useFakeTimers();
    render(<App loader={fakeLoader({}).loader} />);

    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(screen.getByText('Connection Error')).toBeTruthy();
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByText('Connection Error')).toBeTruthy();

    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(screen.getByText('Connection Established')).toBeTruthy();
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.queryByText('Connection Established')).toBeNull();
  });
});

describe('redirect route', () => {
  it('goes to a same-origin prevPath', async () => {
    go('/redirect?prevPath=%2Fcart');
    const { loader } = fakeLoader({ 'mfe-cart/App': PageRemote('cart') });
    render(<App loader={loader} />);
    await waitFor(() => expect(window.location.pathname).toBe('/cart'));
  });
});

describe('auth route', () => {
  const Sidebar = ({ open, mode }: { open: boolean; mode: string }) => <aside>{`sidebar ${mode} ${open ? 'open' : 'closed'}`}</aside>;
  afterEach(() => resetCurrentUserForTests());

  it('opens the auth sidebar over home for a visitor', async () => {
    go('/auth');
    const { loader } = fakeLoader({ 'mfe-discovery/App': PageRemote('discovery'), 'mfe-account/AuthSidebar': Sidebar });
    render(<App loader={loader} />);
    expect(await screen.findByText('sidebar login open')).toBeTruthy();
    expect(window.location.pathname).toBe('/auth');
  });

  it('sends a signed-in user home, also right after signing in there', async () => {
    go('/auth');
    const { loader } = fakeLoader({ 'mfe-discovery/App': PageRemote('discovery'), 'mfe-account/AuthSidebar': Sidebar });
    render(<App loader={loader} />);
    await screen.findByText('sidebar login open');

    act(() => setCurrentUser({ customer_id: '1', mobile: '9876543210', name: 'Asha' } as User));

    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect((await screen.findByTestId('remote')).textContent).toContain('discovery:home:HOME');
  });
});
