import { installFakeEdge, reply } from '@tiffin/api-client/testing';
import { on, resetCurrentUserForTests, setCurrentUser, type User } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Header } from './Header';
import { pageReload, useCurrentUser } from './user';

const asha: User = {
  customer_id: '17',
  mobile: '9876543210',
  name: 'Asha Rao',
  email: 'asha@example.com',
  pendingEmail: '',
  emailVerified: true,
  optional_map: {},
  preferences: { sms: { orders: true, recommendations: true, reminders: false } },
};

const koramangala = { lat: 12.9, lng: 77.6, address: 'Koramangala, Bangalore', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };

/** The header as the shell renders it: the user follows `auth:changed`. */
function LiveHeader({ located = false }: { located?: boolean }) {
  const user = useCurrentUser();
  return <Header pageType="CART" location={located ? koramangala : null} cartCount={0} user={user} />;
}

function openMenu() {
  fireEvent.click(screen.getByTestId('user-menu-button'));
  return screen.getByRole('menu', { name: 'Account' });
}

beforeEach(() => {
  resetCurrentUserForTests();
  installFakeEdge({});
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.getElementById('tiffin-initial-state')?.remove();
});

describe('header user entry', () => {
  it('shows Login to a visitor, which opens the auth sidebar', () => {
    const opened: string[] = [];
    const off = on('auth:open', ({ mode }) => opened.push(mode));
    render(<LiveHeader />);
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    off();
    expect(opened).toEqual(['login']);
    expect(screen.queryByTestId('user-menu-button')).toBeNull();
  });

  it("starts from the initial state's user", () => {
    const script = document.createElement('script');
    script.id = 'tiffin-initial-state';
    script.type = 'application/json';
    script.textContent = JSON.stringify({ csrfToken: 'c', user: asha });
    document.head.append(script);
    render(<LiveHeader />);
    expect(screen.getByTestId('user-menu-button').textContent).toBe('Asha');
  });

  it('turns into the name on auth:changed, without a page load', () => {
    render(<LiveHeader />);
    act(() => setCurrentUser(asha));
    expect(screen.queryByRole('button', { name: 'Login' })).toBeNull();
    expect(screen.getByTestId('user-menu-button').textContent).toBe('Asha');
  });

  it('opens on hover and stays open on the click that follows; Escape closes it', () => {
    setCurrentUser(asha);
    render(<LiveHeader />);
    const button = screen.getByTestId('user-menu-button');
    fireEvent.mouseEnter(button.parentElement!);
    fireEvent.click(button);
    expect(screen.getByRole('menu', { name: 'Account' })).toBeTruthy();
    expect(button.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(button, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('lists Orders, Favourites, Profile, Tiffin One and Logout; Offers only with a location', () => {
    setCurrentUser(asha);
    const { unmount } = render(<LiveHeader />);
    const items = (menu: HTMLElement) => within(menu).getAllByRole('menuitem').map((i) => i.textContent);
    expect(items(openMenu())).toEqual(['Orders', 'Favourites', 'Profile', 'Tiffin One', 'Logout']);
    unmount();

    render(<LiveHeader located />);
    const menu = openMenu();
    expect(items(menu)).toEqual(['Orders', 'Favourites', 'Offers', 'Profile', 'Tiffin One', 'Logout']);
    expect(within(menu).getByRole('menuitem', { name: 'Orders' }).getAttribute('href')).toBe('/my-account/orders');
    expect(within(menu).getByRole('menuitem', { name: 'Offers' }).getAttribute('href')).toBe('/offers');
    expect(within(menu).getByRole('menuitem', { name: 'Tiffin One' }).getAttribute('href')).toBe('/tiffin-one');
  });

  it("follows the customer record's membership: a member's Tiffin One opens their membership, marked", () => {
    setCurrentUser({ ...asha, optional_map: { super_status: 'super' } });
    render(<LiveHeader />);
    const entry = within(openMenu()).getByRole('menuitem', { name: /^Tiffin One/ });
    expect(entry.getAttribute('href')).toBe('/my-account/super');
    expect(entry.textContent).toBe('Tiffin One · Member');
  });

  it('sends a past member to the plans, like anyone who is not a member', () => {
    setCurrentUser({ ...asha, optional_map: { super_status: 'WAS_SUPER' } });
    render(<LiveHeader />);
    const entry = within(openMenu()).getByRole('menuitem', { name: 'Tiffin One' });
    expect(entry.getAttribute('href')).toBe('/tiffin-one');
  });
});

describe('logout', () => {
  it('posts auth/logout, forgets the delivery address and reloads', async () => {
    const fetch = installFakeEdge({ '/api/auth/logout': null });
    const reload = vi.spyOn(pageReload, 'reload').mockImplementation(() => {});
    document.cookie = 'deliveryAddressId=a1; Path=/';
    localStorage.setItem('tfn_dweb_deliveryAddressId', 'a1');
    setCurrentUser(asha);
    render(<LiveHeader />);

    fireEvent.click(within(openMenu()).getByRole('menuitem', { name: 'Logout' }));

    await waitFor(() => expect(reload).toHaveBeenCalledOnce());
    expect(fetch.mock.calls.map((c) => [c[0], c[1]?.method])).toEqual([['/api/auth/logout', 'POST']]);
    expect(document.cookie).not.toContain('deliveryAddressId');
    expect(localStorage.getItem('tfn_dweb_deliveryAddressId')).toBeNull();
  });

  it('reloads even when the call fails', async () => {
    installFakeEdge({ '/api/auth/logout': reply(503, 777, "Something's broken") });
    const reload = vi.spyOn(pageReload, 'reload').mockImplementation(() => {});
    setCurrentUser(asha);
    render(<LiveHeader />);
    fireEvent.click(within(openMenu()).getByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(reload).toHaveBeenCalledOnce());
  });
});

describe('location bar', () => {
  it('shows the truncated title and the address, and opens the location sidebar', () => {
    const opens: unknown[] = [];
    const off = on('location:open', (detail) => opens.push(detail));
    const far = { ...koramangala, mainText: 'Koramangala 5th Block', address: '5th Block, Koramangala, Bangalore' };
    render(<Header pageType="LISTING" location={far} cartCount={0} />);

    const bar = screen.getByTestId('location-bar');
    expect(bar.querySelector('.shell-location-bar__title')?.textContent).toBe('Koramangala 5th …');
    expect(bar.querySelector('.shell-location-bar__address')?.textContent).toBe('5th Block, Koramangala, Bangalore');
    fireEvent.click(bar);
    off();

    expect(opens).toEqual([{}]);
  });

  it('prompts for a location when none is set', () => {
    render(<Header pageType="MENU" location={null} cartCount={0} />);
    expect(screen.getByTestId('location-bar').textContent).toContain('Set your location');
  });

  it('appears only on the page types whose header has it', () => {
    for (const pageType of ['LISTING', 'SEARCH', 'COLLECTION', 'OFFERS', 'MENU'] as const) {
      render(<Header pageType={pageType} location={koramangala} cartCount={0} />);
      expect(screen.queryByTestId('location-bar'), pageType).not.toBeNull();
      cleanup();
    }
    for (const pageType of ['CART', 'CHECKOUT', 'ACCOUNT', 'MEMBERSHIP', 'CITY', 'STATIC'] as const) {
      render(<Header pageType={pageType} location={koramangala} cartCount={0} />);
      expect(screen.queryByTestId('location-bar'), pageType).toBeNull();
      cleanup();
    }
  });
});

describe('secondary links', () => {
  // jsdom applies no stylesheet: whether the toggle or the row shows is header.css's business
  // (e2e/tests/layout.spec.mjs); here, what the menu button does.
  it('sit behind one menu button that opens and closes them', () => {
    render(<Header pageType="LISTING" location={koramangala} cartCount={0} />);
    const toggle = screen.getByRole('button', { name: 'More links' });
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(within(panel).getAllByRole('link').map((link) => link.textContent)).toEqual(['Tiffin Corporate', 'Search', 'Offers', 'Help']);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('close on Escape and on following a link', () => {
    render(<Header pageType="LISTING" location={koramangala} cartCount={0} />);
    const toggle = screen.getByRole('button', { name: 'More links' });
    fireEvent.click(toggle);
    fireEvent.keyDown(toggle, { key: 'Escape' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(toggle);
    fireEvent.click(screen.getByRole('link', { name: 'Offers' }));
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });
});
