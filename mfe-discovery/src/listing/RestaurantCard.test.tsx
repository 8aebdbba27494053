/**
 * The listing card's favourite heart: only for a signed-in customer, lit from one
 * `GET /api/profile/favourites` per page, toggled with `POST /api/misc/favorite`, undone with the
 * spec's message when the call fails.
 */
import { fixtures, installFakeEdge, reply } from '@tiffin/api-client/testing';
import { on, setCurrentUser, type User } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetFavouritesForTests } from '../common/favourites';
import { RestaurantCard } from './RestaurantCard';

const user: User = {
  customer_id: '17',
  mobile: '9876543210',
  name: 'Asha',
  email: '',
  pendingEmail: '',
  emailVerified: false,
  optional_map: {},
  preferences: { sms: { orders: true, recommendations: true, reminders: false } },
};

const meghana = fixtures.restaurant({ id: '1042', name: 'Meghana Biryani House' });
const truffles = fixtures.restaurant({ id: '2001', name: 'Truffles', slug: 'truffles-koramangala' });

function renderCards() {
  return render(
    <ul>
      <RestaurantCard restaurant={meghana} />
      <RestaurantCard restaurant={truffles} />
      <RestaurantCard restaurant={meghana} />
    </ul>,
  );
}

const hearts = () => screen.getAllByTestId('favourite-toggle').map((h) => h.getAttribute('aria-pressed'));
const calls = (fetch: ReturnType<typeof installFakeEdge>, path: string) => fetch.mock.calls.filter(([url]) => new URL(String(url), 'http://localhost').pathname === path);

beforeEach(() => {
  resetFavouritesForTests();
  window.localStorage.clear();
});

afterEach(() => {
  cleanup();
  setCurrentUser(null);
});

describe('listing card favourite', () => {
  it('shows no heart to a visitor and asks for no favourites', () => {
    const fetch = installFakeEdge({ '/api/profile/favourites': { restaurants: [] } });
    renderCards();
    expect(screen.queryByTestId('favourite-toggle')).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('lights the favourites of a signed-in customer, reading them once for the page', async () => {
    setCurrentUser(user);
    const fetch = installFakeEdge({ '/api/profile/favourites': { restaurants: [meghana] } });
    renderCards();
    await waitFor(() => expect(hearts()).toEqual(['true', 'false', 'true']));
    expect(calls(fetch, '/api/profile/favourites')).toHaveLength(1);
    expect(screen.getAllByTestId('restaurant-card')[0]!.querySelector('a')?.getAttribute('href')).toBe('/restaurants/meghana-biryani-house-koramangala-1042');
  });

  it('toggles with POST misc/favorite and every card of that restaurant follows', async () => {
    setCurrentUser(user);
    const fetch = installFakeEdge({ '/api/profile/favourites': { restaurants: [] }, '/api/misc/favorite': { restaurantId: '2001', favourite: true } });
    renderCards();
    await waitFor(() => expect(calls(fetch, '/api/profile/favourites')).toHaveLength(1));
    const card = screen.getAllByTestId('restaurant-card')[1]!;
    fireEvent.click(within(card).getByRole('button', { name: 'Add Truffles to favourites' }));
    await waitFor(() => expect(hearts()).toEqual(['false', 'true', 'false']));
    const [call] = calls(fetch, '/api/misc/favorite');
    expect(JSON.parse(String(call![1]?.body))).toMatchObject({ restaurantId: '2001', favourite: true });
    expect(within(card).getByRole('button', { name: 'Remove Truffles from favourites' })).toBeTruthy();
    // The heart is its own control, not part of the link to the menu.
    expect(within(card).getByTestId('favourite-toggle').closest('a')).toBeNull();
  });

  it("undoes a failed un-favourite and says 'Unable to remove {0} from your favourites'", async () => {
    setCurrentUser(user);
    installFakeEdge({ '/api/profile/favourites': { restaurants: [meghana] }, '/api/misc/favorite': reply(500, 1, 'Oops! Something went wrong.') });
    const toasts: unknown[] = [];
    const off = on('toast:show', (detail) => toasts.push(detail));
    renderCards();
    await waitFor(() => expect(hearts()).toEqual(['true', 'false', 'true']));
    fireEvent.click(screen.getAllByRole('button', { name: 'Remove Meghana Biryani House from favourites' })[0]!);
    await waitFor(() => expect(toasts).toHaveLength(1));
    off();
    expect((toasts[0] as { text: string }).text).toBe('Unable to remove Meghana Biryani House from your favourites');
    expect(hearts()).toEqual(['true', 'false', 'true']);
  });

  it('still shows the cards, hearts off, when favourites cannot be read', async () => {
    setCurrentUser(user);
    const fetch = installFakeEdge({ '/api/profile/favourites': reply(503, 777, "Something's broken") });
    renderCards();
    await waitFor(() => expect(calls(fetch, '/api/profile/favourites').length).toBeGreaterThan(0));
    expect(screen.getAllByTestId('restaurant-card')).toHaveLength(3);
    expect(hearts()).toEqual(['false', 'false', 'false']);
  });
});
