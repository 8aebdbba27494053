import { carryFirstReply, fixtures, installFakeEdge, reply } from '@tiffin/api-client/testing';
import * as cartStore from '@tiffin/cart-store';
import { on, resetCurrentUserForTests, setCurrentUser, type Cart, type User } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import pkg from '../../package.json';
import App from './App';
import HeaderCart from './HeaderCart';

// The real store, with its setLineQuantity observed: the stepper must go through it.
vi.mock('@tiffin/cart-store', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@tiffin/cart-store')>();
  return { ...actual, setLineQuantity: vi.fn(actual.setLineQuantity) };
});

const route = { id: 'cart', pageType: 'CART' as const, params: {} };

afterEach(() => {
  cleanup();
  cartStore.resetCart();
  resetCurrentUserForTests();
  document.cookie = 'deliveryAddressId=; Max-Age=0; Path=/';
  localStorage.clear();
  vi.unstubAllGlobals();
});

/** A cart of one line (the fixture's, with overrides), totals consistent with it. */
function cartWith(line: Partial<Cart['cartItems'][number]>, extra: Partial<Cart> = {}): Cart {
  const base = fixtures.cart();
  const item = { ...base.cartItems[0]!, ...line };
  return { ...base, cartItems: [item], cartItemsCount: item.quantity, item_total: item.final_price, ...extra };
}

describe('cart page', () => {
  it('shows the restaurant, lines, item total and the checkout link, and announces the count', async () => {
    installFakeEdge({ '/api/cart': fixtures.cart() });
    const counts: number[] = [];
    const off = on('cart:updated', ({ count }) => counts.push(count));
    const { container } = render(<App route={route} path="/cart" />);

    expect(await screen.findByRole('heading', { name: 'Meghana Biryani House' })).toBeTruthy();
    off();
    expect(screen.getByText('Koramangala')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Meghana Biryani House' }).getAttribute('src')).toBe('/images/restaurant-1042?w=100&h=100');
    const lines = screen.getByRole('list', { name: 'Items in cart' });
    expect(lines.textContent).toContain('Chicken Dum Biryani');
    expect(lines.textContent).toContain('Half, Raita');
    expect(within(lines).getByRole('img', { name: 'Non-veg' })).toBeTruthy();
    expect(within(lines).getByRole('group', { name: 'Quantity of Chicken Dum Biryani' }).textContent).toContain('2');
    expect(screen.getByTestId('cart-item-total').textContent).toBe('₹558');
    expect(screen.getByRole('link', { name: 'Proceed to checkout' }).getAttribute('href')).toBe('/checkout');
    expect(counts).toEqual([2]);
    expect(container.querySelector('[data-mfe="mfe-cart"]')?.getAttribute('data-mfe-version')).toBe(pkg.version);
  });

  it('draws the cart the page was served with without asking again, then tells the shell it is drawn', async () => {
    const fetch = installFakeEdge({ '/api/cart': fixtures.cart() });
    const undo = carryFirstReply({ path: 'cart', query: {}, page: '/cart', data: cartWith({ name: 'Served Biryani' }), statusCode: 0 });
    const drawn: string[] = [];
    const off = on('page:drawn', () => drawn.push(document.querySelector('.cart-page') ? 'cart' : 'skeleton'));
    try {
      render(<App route={route} path="/cart" />);
      const lines = await screen.findByRole('list', { name: 'Items in cart' });
      expect(lines.textContent).toContain('Served Biryani');
      expect(fetch.mock.calls.filter(([url]) => String(url).startsWith('/api/cart'))).toEqual([]);
      expect(drawn).toEqual(['cart']);
    } finally {
      off();
      undo();
    }
  });

  it('tells the shell the page is drawn only once the cart, or why there is none, is shown', async () => {
    installFakeEdge({ '/api/cart': reply(429, 429, "We'll be back shortly") });
    const drawn: number[] = [];
    const off = on('page:drawn', () => drawn.push(1));
    render(<App route={route} path="/cart" />);
    expect(drawn).toEqual([]);
    await screen.findByText("We'll be back shortly");
    off();
    expect(drawn).toEqual([1]);
  });

  it('shows prices in rupees from paise, exactly', async () => {
    installFakeEdge({ '/api/cart': cartWith({ quantity: 1, base_price: 24900, final_price: 24900 }) });
    render(<App route={route} path="/cart" />);
    const lines = await screen.findByRole('list', { name: 'Items in cart' });
    expect(lines.querySelector('.cart-line__price')?.textContent).toBe('₹249');
    expect(screen.getByTestId('cart-item-total').textContent).toBe('₹249');
  });

  it('keeps paise when a price is not whole rupees', async () => {
    installFakeEdge({ '/api/cart': cartWith({ quantity: 3, base_price: 12345, final_price: 37035 }) });
    render(<App route={route} path="/cart" />);
    const lines = await screen.findByRole('list', { name: 'Items in cart' });
    expect(lines.querySelector('.cart-line__price')?.textContent).toBe('₹370.35');
  });

  it('steps the quantity through the cart store and shows the server reply', async () => {
    let posted: unknown = null;
    installFakeEdge({
      '/api/cart': (_url: URL, init?: RequestInit) => {
        if (init?.method !== 'POST') return fixtures.cart();
        posted = JSON.parse(String(init.body));
        return cartWith({ quantity: 3, final_price: 83700 });
      },
    });
    render(<App route={route} path="/cart" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add one Chicken Dum Biryani' }));

    expect(cartStore.setLineQuantity).toHaveBeenCalledWith('88001|ch1|v1', 3);
    // Optimistic first, then the server's price.
    expect(screen.getByRole('group', { name: 'Quantity of Chicken Dum Biryani' }).textContent).toContain('3');
    expect(await screen.findByText('₹837', { selector: '.cart-line__price' })).toBeTruthy();
    expect(posted).toMatchObject({ restaurantId: '1042', cartItems: [{ menu_item_id: '88001', quantity: 3 }] });
  });

  it('removes one with the minus button', async () => {
    installFakeEdge({ '/api/cart': (_url: URL, init?: RequestInit) => (init?.method === 'POST' ? cartWith({ quantity: 1, final_price: 27900 }) : fixtures.cart()) });
    render(<App route={route} path="/cart" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove one Chicken Dum Biryani' }));
    expect(cartStore.setLineQuantity).toHaveBeenCalledWith('88001|ch1|v1', 1);
  });

  it('invites the visitor to browse when the cart is empty', async () => {
    installFakeEdge({ '/api/cart': fixtures.emptyCart() });
    render(<App route={route} path="/cart" />);
    expect(await screen.findByText('Your cart is empty')).toBeTruthy();
    expect(screen.getByText('You can go to home page to view more restaurants')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'SEE RESTAURANTS NEAR YOU' }).getAttribute('href')).toBe('/');
  });

  it('flags an out-of-stock line as Unavailable and holds checkout back', async () => {
    installFakeEdge({
      '/api/cart': { status: 200, body: { statusCode: 8, statusMessage: 'Item(s) unavailable', data: cartWith({ in_stock: 0 }) } },
    });
    render(<App route={route} path="/cart" />);
    const lines = await screen.findByRole('list', { name: 'Items in cart' });
    expect(within(lines).getByText('Unavailable')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Item(s) unavailable');
    expect(screen.queryByRole('link', { name: 'Proceed to checkout' })).toBeNull();
    expect((screen.getByRole('button', { name: 'Proceed to checkout' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Add one Chicken Dum Biryani' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the 429 screen without a retry when the edge is rate limiting', async () => {
    installFakeEdge({ '/api/cart': reply(429, 429, "We'll be back shortly") });
    render(<App route={route} path="/cart" />);
    expect(await screen.findByText("We'll be back shortly")).toBeTruthy();
    expect(screen.getByText("Our ovens need some maintenance. We'll be up and serving good food in no time.")).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('shows the outage screen, and Retry fetches again', async () => {
    const fetch = installFakeEdge({ '/api/cart': reply(503, 777, "Something's broken") });
    render(<App route={route} path="/cart" />);
    expect(await screen.findByText('We are facing some outages on the storefront. Our best minds are working on it.')).toBeTruthy();
    const calls = fetch.mock.calls.length;
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    });
    expect(fetch.mock.calls.length).toBeGreaterThan(calls);
  });
});

describe('HeaderCart', () => {
  it('shows the empty placeholder', async () => {
    installFakeEdge({ '/api/cart': fixtures.emptyCart() });
    render(<HeaderCart />);
    expect(await screen.findByText('Cart Empty')).toBeTruthy();
    expect(screen.getByText('Good food is always cooking! Go ahead, order some yummy items from the menu.')).toBeTruthy();
  });

  it('fetches on mount, joining a fetch already in flight', async () => {
    const fetch = installFakeEdge({ '/api/cart': fixtures.cart() });
    const pending = cartStore.fetchCart();
    render(<HeaderCart />);
    await pending;
    expect(await screen.findByText('Meghana Biryani House')).toBeTruthy();
    expect(fetch).toHaveBeenCalledOnce();
  });

  it('shows the restaurant, items and subtotal, then checks out through the shell and closes itself', async () => {
    installFakeEdge({ '/api/cart': fixtures.cart() });
    const onClose = vi.fn();
    const navigations: string[] = [];
    const off = on('route:navigate', ({ to }, event) => {
      navigations.push(to);
      event.preventDefault();
    });
    render(<HeaderCart onClose={onClose} />);

    expect((await screen.findByText('Sub total')).parentElement!.textContent).toContain('₹558');
    expect(screen.getByText('Meghana Biryani House')).toBeTruthy();
    const lines = screen.getByRole('list', { name: 'Items in cart' });
    expect(within(lines).getByLabelText('Quantity 2').textContent).toBe('× 2');
    expect(within(lines).getByRole('img', { name: 'Non-veg' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'CHECKOUT' }));
    off();

    expect(onClose).toHaveBeenCalledOnce();
    expect(navigations).toEqual(['/checkout']);
  });
});

/** The fixture cart with its meta: a bill, coupons, ETA (docs/edge-api.md "The Cart"). */
function billed(extra: Partial<Cart> = {}): Cart {
  return {
    ...fixtures.cart(),
    bill: {
      lines: [
        { key: 'ITEM_TOTAL', label: 'Item Total', amount: 55800, tooltip: null },
        { key: 'DELIVERY_FEE', label: 'Delivery Fee | 2.4 kms', amount: 2500, tooltip: 'Delivery fee for 2.4 kms: ₹25 up to 3 kms, then ₹8 per km.' },
        { key: 'PACKAGING', label: 'Packaging Charges', amount: 1000, tooltip: '₹5 per item, up to ₹50, charged by the restaurant.' },
        { key: 'PLATFORM_FEE', label: 'Platform Fee', amount: 500, tooltip: 'Helps us run and improve Tiffin.' },
        { key: 'GST', label: 'GST', amount: 2810, tooltip: '5% on food and packaging + 18% on fees.' },
      ],
      to_pay: 62610,
    },
    coupon_code: '',
    coupon_details: null,
    discount_message: null,
    coupons: [
      { code: 'TIFFIN20', title: '20% OFF UPTO ₹100', description: 'Use TIFFIN20 | above ₹249', type: 'PERCENTAGE', applicable: true, discount: 10000, message: 'You save ₹100' },
      { code: 'BIG50', title: 'FLAT ₹50 OFF', description: 'above ₹999', type: 'FLAT', applicable: false, discount: 0, message: 'Add items worth ₹441 more to apply BIG50' },
    ],
    best_coupon: 'TIFFIN20',
    cartFreebieItems: [],
    cutlerySelection: { restaurantId: '1042', selected: false },
    cutlery_instruction: null,
    order_comments: '',
    address_id: null,
    addresses: [],
    estimated_sla_min: 25,
    estimated_sla_max: 35,
    sla_time: 30,
    min_cart_message: null,
    ...extra,
  };
}

const withCoupon = (cart: Cart): Cart => ({
  ...cart,
  coupon_code: 'TIFFIN20',
  coupon_details: { code: 'TIFFIN20', title: '20% OFF UPTO ₹100', description: 'Use TIFFIN20 | above ₹249', type: 'PERCENTAGE', discount: 10000 },
  discount_message: 'You saved ₹100 with TIFFIN20',
  discount_message_type: 'SUCCESS',
  bill: { lines: [...cart.bill!.lines, { key: 'COUPON_DISCOUNT', label: 'Coupon Discount (TIFFIN20)', amount: -10000, tooltip: '20% off up to ₹100 with TIFFIN20.' }], to_pay: 52610 },
});

/** A fake cart edge that records every POST as [path, body without _csrf]. */
function cartEdge(initial: Cart, onPost: (path: string, body: Record<string, unknown>, current: Cart) => Cart | { status: number; body: unknown }) {
  let current = initial;
  const posts: Array<[string, Record<string, unknown>]> = [];
  const handler = (url: URL, init?: RequestInit) => {
    if (init?.method !== 'POST') return current;
    const { _csrf, ...body } = JSON.parse(String(init.body)) as Record<string, unknown>;
    posts.push([url.pathname, body]);
    const answer = onPost(url.pathname, body, current);
    if ('status' in answer && 'body' in answer) return answer;
    current = answer as Cart;
    return current;
  };
  const fetch = installFakeEdge({
    '/api/cart': handler,
    '/api/cart/applyCoupon': handler,
    '/api/cart/removeCoupon': handler,
    '/api/cart/removeReward': handler,
  });
  return { posts, fetch };
}

describe('cart page: bill, coupons, cutlery, note, address', () => {
  it('shows the delivery time and every bill line in order with its tooltip, then To Pay', async () => {
    installFakeEdge({ '/api/cart': billed() });
    render(<App route={route} path="/cart" />);
    const bill = await screen.findByRole('region', { name: 'Bill Details' });
    expect(screen.getByTestId('cart-eta').textContent).toBe('Delivery in 25-35 MINS');
    const lines = [...bill.querySelectorAll('[data-bill-line]')].map((l) => [l.getAttribute('data-bill-line'), l.querySelector('dd')?.textContent]);
    expect(lines).toEqual([
      ['ITEM_TOTAL', '₹558'],
      ['DELIVERY_FEE', '₹25'],
      ['PACKAGING', '₹10'],
      ['PLATFORM_FEE', '₹5'],
      ['GST', '₹28.10'],
    ]);
    expect(screen.getByTestId('cart-to-pay').textContent).toBe('₹626.10');

    const info = within(bill).getByRole('button', { name: 'About Delivery Fee | 2.4 kms' });
    const tooltip = document.getElementById(info.getAttribute('aria-describedby')!)!;
    expect(tooltip.hidden).toBe(true);
    fireEvent.click(info);
    expect(tooltip.hidden).toBe(false);
    expect(tooltip.textContent).toBe('Delivery fee for 2.4 kms: ₹25 up to 3 kms, then ₹8 per km.');
    fireEvent.keyDown(info, { key: 'Escape' });
    expect(tooltip.hidden).toBe(true);
    expect(within(bill).queryByRole('button', { name: 'About Item Total' })).toBeNull();
  });

  it('shows a free delivery as FREE and a discount as a negative line', async () => {
    const cart = withCoupon(billed());
    cart.bill!.lines[1] = { key: 'DELIVERY_FEE', label: 'Delivery Fee', amount: 0, tooltip: 'Free delivery on orders above ₹499' };
    installFakeEdge({ '/api/cart': cart });
    render(<App route={route} path="/cart" />);
    const bill = await screen.findByRole('region', { name: 'Bill Details' });
    expect(bill.querySelector('[data-bill-line="DELIVERY_FEE"] dd')?.textContent).toBe('FREE');
    expect(bill.querySelector('[data-bill-line="COUPON_DISCOUNT"] dd')?.textContent).toBe('-₹100');
  });

  it('shows a cancellation fee carried from a cancelled cash order as a bill line, and the message saying why', async () => {
    const cart = billed({
      cancellation_message: {
        title: 'Cancellation fee added',
        message: 'A cancellation fee of ₹269.50 from your cancelled order is added to this order.',
        icon_url: null,
        points: ['₹269.50 for your order from Meghana Biryani House, cancelled after the restaurant had confirmed it.'],
        buttons: [{ text: 'VIEW ORDER', link: '/my-account/orders/123' }],
      },
    });
    cart.bill = {
      lines: [...cart.bill!.lines, { key: 'CANCELLATION_DUE', label: 'Cancellation Fee', amount: 26950, tooltip: 'Kept when a cash-on-delivery order was cancelled after the restaurant confirmed it.' }],
      to_pay: 62610 + 26950,
    };
    installFakeEdge({ '/api/cart': cart });
    render(<App route={route} path="/cart" />);

    const bill = await screen.findByRole('region', { name: 'Bill Details' });
    const fee = bill.querySelector('[data-bill-line="CANCELLATION_DUE"]');
    expect(within(fee as HTMLElement).getByRole('button', { name: 'About Cancellation Fee' })).toBeTruthy();
    expect(fee?.querySelector('dd')?.textContent).toBe('₹269.50');
    expect(screen.getByTestId('cart-to-pay').textContent).toBe('₹895.60');
    const note = screen.getByRole('complementary', { name: 'Cancellation fee added' });
    expect(note.textContent).toContain('A cancellation fee of ₹269.50 from your cancelled order is added to this order.');
    expect(within(note).getByRole('listitem').textContent).toContain('Meghana Biryani House');
    expect(within(note).getByRole('link', { name: 'VIEW ORDER' }).getAttribute('href')).toBe('/my-account/orders/123');
  });

  it('says nothing about a cancellation fee when none is owed', async () => {
    installFakeEdge({ '/api/cart': billed() });
    render(<App route={route} path="/cart" />);
    await screen.findByRole('region', { name: 'Bill Details' });
    expect(screen.queryByRole('complementary', { name: 'Cancellation fee added' })).toBeNull();
    expect(document.querySelector('[data-bill-line="CANCELLATION_DUE"]')).toBeNull();
  });

  it('suggests the best coupon, applies a typed code, shows what it saved, and removes it', async () => {
    const { posts } = cartEdge(billed(), (path, body, current) => {
      if (path === '/api/cart/applyCoupon') return String(body.couponCode).toUpperCase() === 'TIFFIN20' ? withCoupon(current) : reply(400, 1, 'Invalid coupon code');
      if (path === '/api/cart/removeCoupon') return billed();
      return current;
    });
    render(<App route={route} path="/cart" />);
    expect((await screen.findByTestId('best-coupon')).textContent).toContain('TIFFIN20 saves you ₹100');
    const notApplicable = screen.getByRole('list', { name: 'Available coupons' }).querySelector('[data-coupon="BIG50"]')!;
    expect(notApplicable.textContent).toContain('Add items worth ₹441 more to apply BIG50');
    expect(within(notApplicable as HTMLElement).queryByRole('button')).toBeNull();

    fireEvent.change(screen.getByPlaceholderText('Enter coupon code'), { target: { value: 'tiffin20' } });
    fireEvent.click(screen.getByRole('button', { name: 'APPLY' }));
    expect((await screen.findByTestId('coupon-applied')).textContent).toContain('TIFFIN20 applied');
    expect(screen.getByText('You saved ₹100 with TIFFIN20')).toBeTruthy();
    expect(screen.getByTestId('cart-to-pay').textContent).toBe('₹526.10');
    expect(posts).toEqual([['/api/cart/applyCoupon', { couponCode: 'tiffin20' }]]);

    fireEvent.click(screen.getByRole('button', { name: 'REMOVE' }));
    expect(await screen.findByPlaceholderText('Enter coupon code')).toBeTruthy();
    expect(screen.getByTestId('cart-to-pay').textContent).toBe('₹626.10');
    expect(posts.at(-1)).toEqual(['/api/cart/removeCoupon', {}]);
  });

  it("shows why a coupon does not apply next to the box, without a toast, and the cart stays", async () => {
    cartEdge(billed(), () => reply(400, 1, 'TRYNEW is valid only on your first order'));
    const toasts: string[] = [];
    const off = on('toast:show', ({ text }) => toasts.push(text));
    render(<App route={route} path="/cart" />);
    fireEvent.change(await screen.findByPlaceholderText('Enter coupon code'), { target: { value: 'TRYNEW' } });
    fireEvent.click(screen.getByRole('button', { name: 'APPLY' }));
    expect((await screen.findByRole('alert')).textContent).toBe('TRYNEW is valid only on your first order');
    off();
    expect(toasts).toEqual([]);
    expect(screen.getByTestId('cart-to-pay').textContent).toBe('₹626.10');
  });

  it('offers to remove the free item of a FREEBIE coupon', async () => {
    const freebie = { id: 'freebie-1042', name: 'Free Delight', quantity: 1, final_price: 0, rewardType: 'Freebie', message: '1 Free Delight for you' };
    const { posts } = cartEdge(billed({ coupon_code: 'DELIGHT', cartFreebieItems: [freebie] }), (_path, _body, current) => ({ ...current, coupon_code: '', cartFreebieItems: [] }));
    render(<App route={route} path="/cart" />);
    expect((await screen.findByTestId('cart-freebie')).textContent).toContain('1 Free Delight for you');
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitForGone(() => screen.queryByTestId('cart-freebie'));
    expect(posts).toEqual([['/api/cart/removeReward', {}]]);
  });

  it("ticks 'Don't send cutlery' for this restaurant and shows the instruction", async () => {
    const { posts } = cartEdge(billed(), (_path, body, current) => ({ ...current, cutlerySelection: body.cutlerySelection as Cart['cutlerySelection'], cutlery_instruction: 'DONT SEND CUTLERY' }));
    render(<App route={route} path="/cart" />);
    const box = (await screen.findByRole('checkbox', { name: "Don't send cutlery" })) as HTMLInputElement;
    expect(box.checked).toBe(false); // Not selected by default
    fireEvent.click(box);
    expect((await screen.findByTestId('cutlery-instruction')).textContent).toBe('DONT SEND CUTLERY');
    expect(posts).toEqual([['/api/cart', { cutlerySelection: { restaurantId: '1042', selected: true } }]]);
  });

  it('saves the note to the restaurant when the field is left', async () => {
    const { posts } = cartEdge(billed(), (_path, body, current) => ({ ...current, order_comments: String(body.order_comments) }));
    render(<App route={route} path="/cart" />);
    const note = await screen.findByLabelText('Any suggestions? We will pass it on…');
    fireEvent.change(note, { target: { value: 'Less spicy & no onions' } });
    fireEvent.blur(note);
    await screen.findByText('21/200');
    expect(posts).toEqual([['/api/cart', { order_comments: 'Less spicy  no onions' }]]);
  });

  it('lets a signed-in customer pick only an address the restaurant delivers to', async () => {
    const addresses = [
      { id: 'home', annotation: 'HOME', address: 'Flat 4B, Koramangala', area: 'Koramangala', delivery_valid: 1 },
      { id: 'far', annotation: 'WORK', address: 'Desk 7, Whitefield', area: 'Whitefield', delivery_valid: 0 },
    ];
    const fetch = installFakeEdge({ '/api/cart': () => billed({ addresses, address_id: document.cookie.includes('deliveryAddressId=home') ? 'home' : null }) });
    // Signing in refetches the cart (the store follows auth:changed), so the fake edge comes first.
    setCurrentUser({ customer_id: '17', mobile: '9876543210', name: 'Asha', email: '', pendingEmail: '', emailVerified: false, optional_map: {}, preferences: { sms: { orders: true, recommendations: true, reminders: false } } } as User);
    render(<App route={route} path="/cart" />);
    const region = await screen.findByRole('region', { name: 'Delivery address' });
    const [home, far] = within(region).getAllByRole('radio') as HTMLInputElement[];
    expect(far!.disabled).toBe(true);
    expect(region.textContent).toContain('Does not deliver here');
    const calls = fetch.mock.calls.length;
    fireEvent.click(home!);
    await act(async () => {});
    expect(document.cookie).toContain('deliveryAddressId=home');
    expect(fetch.mock.calls.length).toBe(calls + 1);
    expect(((await within(region).findAllByRole('radio'))[0] as HTMLInputElement).checked).toBe(true);
  });

  it('asks a guest to log in to choose an address', async () => {
    installFakeEdge({ '/api/cart': billed() });
    const opened: string[] = [];
    const off = on('auth:open', ({ mode }) => opened.push(mode));
    render(<App route={route} path="/cart" />);
    const region = await screen.findByRole('region', { name: 'Delivery address' });
    fireEvent.click(within(region).getByRole('button', { name: 'LOGIN' }));
    off();
    expect(opened).toEqual(['login']);
  });

  it('says when a price changed since the customer last saw it', async () => {
    const base = billed();
    installFakeEdge({ '/api/cart': { ...base, cartItems: [{ ...base.cartItems[0]!, price_changed: true, previous_price: 25900 }] } });
    render(<App route={route} path="/cart" />);
    expect((await screen.findByTestId('price-changed')).textContent).toBe('Price changed from ₹259 to ₹279');
  });

  it('shows the address-not-found (10) and minimum-value states with the cart, and holds checkout back', async () => {
    installFakeEdge({
      '/api/cart': { status: 200, body: { statusCode: 10, statusMessage: 'Sorry! This address is not available. Please select another address', data: billed({ min_cart_message: 'Add items worth ₹21 more to place your order' }) } },
    });
    render(<App route={route} path="/cart" />);
    expect((await screen.findByText('Sorry! This address is not available. Please select another address')).closest('[role="status"]')).toBeTruthy();
    expect(screen.getByText('Add items worth ₹21 more to place your order')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Meghana Biryani House' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Proceed to checkout' })).toBeNull();
    expect((screen.getByRole('button', { name: 'Proceed to checkout' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

async function waitForGone(query: () => Element | null) {
  for (let i = 0; i < 50 && query(); i += 1) await act(async () => new Promise((r) => setTimeout(r, 10)));
  expect(query()).toBeNull();
}

describe('cart page: Tiffin One', () => {
  const nudge = {
    planId: '2',
    planName: 'Tiffin One',
    title: '3 months',
    durationDays: 90,
    price: 19900,
    basePrice: 44700,
    savings: 2500,
    message: 'Save ₹25 on this order with Tiffin One',
  };
  const plan = { planId: '2', planName: 'Tiffin One', title: '3 months', quantity: 1, price: 19900, basePrice: 44700, durationDays: 90 };

  it('says what membership saved on this bill, and suggests nothing to a member', async () => {
    installFakeEdge({ '/api/cart': fixtures.cart({ memberSavings: 2500, memberSavingsMessage: 'You saved ₹25 with Tiffin One' }) });
    render(<App route={route} path="/cart" />);
    expect((await screen.findByTestId('member-savings')).textContent).toBe('You saved ₹25 with Tiffin One');
    expect(screen.queryByRole('region', { name: 'Tiffin One' })).toBeNull();
  });

  it("adds the plan the cart suggests with its plan id, then shows the plan in the cart instead of the suggestion", async () => {
    let added = false;
    const sent: unknown[] = [];
    installFakeEdge({
      '/api/cart': () => (added ? fixtures.cart({ subscriptionItems: [plan], subscriptionNudge: null }) : fixtures.cart({ subscriptionNudge: nudge })),
      '/api/cart/addSubscriptionToCart': (_url: URL, init?: RequestInit) => {
        sent.push(JSON.parse(String(init?.body)).subscriptionItems);
        added = true;
        return fixtures.cart({ subscriptionItems: [plan], subscriptionNudge: null });
      },
    });
    render(<App route={route} path="/cart" />);
    const suggestion = await screen.findByRole('region', { name: 'Tiffin One' });
    expect(suggestion.textContent).toContain('Save ₹25 on this order with Tiffin One');
    expect(suggestion.textContent).toContain('Tiffin One · 3 months for ₹199');
    expect(screen.queryByTestId('checkout-plan')).toBeNull();

    fireEvent.click(within(suggestion).getByRole('button', { name: 'Add Tiffin One' }));
    expect((await screen.findByTestId('checkout-plan')).textContent).toContain('Tiffin One · 3 months');
    expect(sent).toEqual([[{ plan_id: '2', quantity: 1 }]]);
    expect(screen.queryByRole('region', { name: 'Tiffin One' })).toBeNull();
  });

  it("shows the cart's reason when the plan cannot be bought now, and keeps the suggestion", async () => {
    installFakeEdge({
      '/api/cart': fixtures.cart({ subscriptionNudge: nudge }),
      '/api/cart/addSubscriptionToCart': reply(200, 21, 'Tiffin One cannot be bought right now.'),
    });
    render(<App route={route} path="/cart" />);
    const suggestion = await screen.findByRole('region', { name: 'Tiffin One' });
    fireEvent.click(within(suggestion).getByRole('button', { name: 'Add Tiffin One' }));
    expect((await within(suggestion).findByRole('alert')).textContent).toBe('Tiffin One cannot be bought right now.');
    expect(within(suggestion).getByRole('button', { name: 'Add Tiffin One' })).toBeTruthy();
    expect(screen.queryByTestId('checkout-plan')).toBeNull();
  });
});
