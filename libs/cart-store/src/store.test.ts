import { createApiClient, type Envelope } from '@tiffin/api-client';
import type { Cart, CartItem, CartLinesUpdate, CartUpdateRequest } from '@tiffin/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cartKey } from './cart-key';
import { DifferentRestaurantError } from './errors';
import { emptyCart } from './draft';
import { createGuestCartCopy, GUEST_CART_KEY, type GuestCartCopy } from './guest-cart';
import { createCartStore } from './store';

/**
 * A small stand-in for the edge's cart: it keeps one cart, prices every unit at 10000 paise plus
 * 3000 per add-on, merges lines by cart key, and can hold its POST replies until the test lets
 * them go, so the order of calls is visible.
 */
function fakeCartEdge(initial: Cart | null = null) {
  let server: Cart = initial ?? { ...emptyCart('c1'), restaurant_details: null, cartItems: [], cartItemsCount: 0, item_total: 0 };
  const posts: CartLinesUpdate[] = [];
  /** POSTs that are not whole-cart line updates: [path, body without _csrf]. */
  const metaPosts: Array<[string, Record<string, unknown>]> = [];
  const calls: string[] = [];
  const held: Array<() => void> = [];
  let hold = false;
  let nextPostReply: { status: number; body: unknown } | null = null;
  let nextGetReply: { status: number; body: unknown } | null = null;

  const envelope = (data: unknown, statusCode = 0, statusMessage = 'done successfully') => ({ statusCode, statusMessage, data, csrfToken: 't' });
  const respond = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  function apply(update: CartLinesUpdate): Cart {
    const lines: CartItem[] = [];
    for (const item of update.cartItems) {
      if (item.quantity === 0) continue;
      const key = cartKey(item);
      const unit = 10000 + 3000 * (item.addons ?? []).length;
      const line = lines.find((l) => l.cart_key === key);
      if (line) {
        line.quantity += item.quantity;
        line.final_price = unit * line.quantity;
        continue;
      }
      lines.push({
        cart_key: key,
        menu_item_id: String(item.menu_item_id),
        name: `Item ${item.menu_item_id}`,
        quantity: item.quantity,
        isVeg: 1,
        in_stock: 1,
        base_price: unit,
        final_price: unit * item.quantity,
        price_changed: false,
        previous_price: null,
        addons: (item.addons ?? []).map((a) => ({ ...a, name: a.choice_id, price: 3000 })),
        variants: (item.variants ?? []).map((v) => ({ ...v, group_name: 'Size', name: v.variation_id, price: 0 })),
      });
    }
    const sameRestaurant = lines.length > 0 && server.restaurant_details?.id === update.restaurantId;
    return {
      // The meta (coupon, note, cutlery) stays with a cart of the same restaurant.
      ...(sameRestaurant ? server : emptyCart('c1')),
      cartId: 'c1',
      restaurant_details: lines.length ? { id: update.restaurantId, name: `Restaurant ${update.restaurantId}`, area_name: 'Koramangala', cloudinary_image_id: 'r', opened: true } : null,
      cartItems: lines,
      cartItemsCount: lines.reduce((s, l) => s + l.quantity, 0),
      item_total: lines.reduce((s, l) => s + l.final_price, 0),
    };
  }

  const fetch = vi.fn(async (input: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    calls.push(method);
    if (method === 'GET') {
      const reply = nextGetReply;
      nextGetReply = null;
      return reply ? respond(reply.status, reply.body) : respond(200, envelope(server));
    }
    const body = JSON.parse(String(init?.body)) as CartUpdateRequest & { _csrf?: string };
    const { _csrf, ...update } = body;
    const path = new URL(input, 'http://localhost').pathname;
    const linesUpdate = path === '/api/cart' && update.cartItems !== undefined;
    if (linesUpdate) posts.push(update as CartLinesUpdate);
    else metaPosts.push([path, update as Record<string, unknown>]);
    if (hold) await new Promise<void>((resolve) => held.push(resolve));
    const reply = nextPostReply;
    nextPostReply = null;
    if (reply) return respond(reply.status, reply.body);
    if (linesUpdate) {
      server = apply(update as CartLinesUpdate);
    } else if (path === '/api/cart/applyCoupon') {
      if (update.couponCode !== 'TIFFIN20') return respond(400, envelope(null, 1, `Invalid coupon code`));
      server = { ...server, coupon_code: 'TIFFIN20', discount_message: 'You saved ₹20 with TIFFIN20' };
    } else if (path === '/api/cart/removeCoupon') {
      server = { ...server, coupon_code: '', discount_message: null, cartFreebieItems: [] };
    } else if (path === '/api/cart/removeReward') {
      server = { ...server, coupon_code: '', cartFreebieItems: [] };
    } else {
      const { order_comments, cutlerySelection } = update;
      server = {
        ...server,
        ...(order_comments != null ? { order_comments } : {}),
        // The edge answers the choice with the cart's restaurant.
        ...(cutlerySelection != null
          ? { cutlerySelection: { restaurantId: server.restaurant_details?.id ?? null, selected: cutlerySelection.selected ?? false } }
          : {}),
      };
    }
    return respond(200, envelope(server));
  });

  return {
    fetch,
    posts,
    metaPosts,
    calls,
    setServer(cart: Cart) {
      server = cart;
    },
    get server() {
      return server;
    },
    holdPosts() {
      hold = true;
    },
    /** Lets the oldest held POST answer, then waits for the store to process it. */
    async releaseOne() {
      held.shift()?.();
      await settle();
    },
    failNextPost(status: number, statusCode: number, statusMessage: string) {
      nextPostReply = { status, body: envelope(null, statusCode, statusMessage) };
    },
    failNextGet(status: number, statusCode: number, statusMessage: string) {
      nextGetReply = { status, body: envelope(null, statusCode, statusMessage) };
    },
    envelope,
  };
}

/** Lets pending promise callbacks and fake fetches run. */
async function settle() {
  for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

function setup(initial: Cart | null = null) {
  const edge = fakeCartEdge(initial);
  const client = createApiClient({ fetch: edge.fetch as unknown as typeof fetch, sleep: async () => {} });
  const toasts: string[] = [];
  const counts: number[] = [];
  const forget = vi.fn();
  const store = createCartStore({ client, toast: (t) => toasts.push(t), announce: (c) => counts.push(c), forgetDeliveryAddress: forget });
  return { edge, store, toasts, counts, forget };
}

const biryani = { menu_item_id: '88001', quantity: 1, variants: [{ group_id: 'vg1', variation_id: 'v1' }], addons: [{ group_id: 'g1', choice_id: 'ch1' }] };
const naan = { menu_item_id: '88002', quantity: 1 };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('fetchCart', () => {
  it('loads the cart, announces its count, and joins a fetch already in flight', async () => {
    const { edge, store, counts } = setup();
    await store.addItem('1042', { ...biryani, quantity: 2 });
    edge.calls.length = 0;
    counts.length = 0;

    const [a, b] = await Promise.all([store.fetchCart(), store.fetchCart()]);

    expect(edge.calls).toEqual(['GET']);
    expect(a).toBe(b);
    expect(store.getSnapshot().cart?.cartItemsCount).toBe(2);
    expect(counts).toEqual([2]);
  });

  it('sends a second GET when forced', async () => {
    const { edge, store } = setup();
    await Promise.all([store.fetchCart(), store.fetchCart({ force: true })]);
    expect(edge.calls).toEqual(['GET', 'GET']);
  });

  it('bills the cart to the address asked for', async () => {
    const { edge, store } = setup();
    await store.fetchCart({ force: true, addressId: '12' });
    expect(String(edge.fetch.mock.calls[0]![0])).toBe('/api/cart?address_id=12');
  });

  it('resets the cart and keeps the HTTP status when the fetch fails', async () => {
    const { edge, store, toasts } = setup();
    await store.fetchCart();
    edge.failNextGet(429, 429, "We'll be back shortly");

    await expect(store.fetchCart({ force: true })).rejects.toThrow("We'll be back shortly");

    expect(store.getSnapshot()).toMatchObject({ cart: null, statusCode: 429, fetching: false, error: "We'll be back shortly" });
    expect(toasts).toEqual([]);
  });

  it('takes the cart the page was served with for its first fetch, code and all, then asks the edge', async () => {
    const edge = fakeCartEdge(null);
    const client = createApiClient({ fetch: edge.fetch as unknown as typeof fetch, sleep: async () => {} });
    let carried: Envelope<Cart> | undefined = { statusCode: 8, data: emptyCart('served') };
    const asked: Record<string, string>[] = [];
    const counts: number[] = [];
    const store = createCartStore({
      client,
      toast: () => {},
      announce: (c) => counts.push(c),
      takeInitial: (query) => {
        asked.push(query);
        const given = carried;
        carried = undefined;
        return given;
      },
    });

    const first = await store.fetchCart();
    expect(edge.calls).toEqual([]);
    expect(first.cartId).toBe('served');
    expect(store.getSnapshot()).toMatchObject({ statusCode: 8, error: null });
    expect(counts).toHaveLength(1);

    await store.fetchCart({ addressId: '12' });
    expect(asked).toEqual([{}, { address_id: '12' }]);
    expect(edge.calls).toEqual(['GET']);
    expect(String(edge.fetch.mock.calls.at(-1)![0])).toBe('/api/cart?address_id=12');

    // A forced fetch (a sign-in, a retry) never takes what the page was served with.
    carried = { statusCode: 0, data: emptyCart('stale') };
    expect((await store.fetchCart({ force: true })).cartId).not.toBe('stale');
    expect(asked).toHaveLength(2);
    expect(edge.calls).toEqual(['GET', 'GET']);
  });

  it('keeps status 8 (items unavailable) as a success with the cart', async () => {
    const { edge, store } = setup();
    await store.addItem('1042', naan);
    edge.fetch.mockImplementationOnce(async () =>
      new Response(JSON.stringify(edge.envelope({ ...edge.server, cartItems: edge.server.cartItems.map((l) => ({ ...l, in_stock: 0 })) }, 8, 'Item(s) unavailable')), { status: 200 }),
    );
    const cart = await store.fetchCart({ force: true });
    expect(cart.cartItems[0]?.in_stock).toBe(0);
    expect(store.getSnapshot()).toMatchObject({ statusCode: 8, error: null });
  });
});

describe('updates', () => {
  it('fetches the server cart before the first update, so the update never overwrites it', async () => {
    const existing: Cart = {
      ...emptyCart('c1'),
      restaurant_details: { id: '1042', name: 'Meghana', area_name: 'Koramangala', cloudinary_image_id: 'r', opened: true },
      cartItems: [{ cart_key: '88002', menu_item_id: '88002', name: 'Naan', quantity: 3, isVeg: 1, in_stock: 1, base_price: 5000, final_price: 15000, price_changed: false, previous_price: null, addons: [], variants: [] }],
      cartItemsCount: 3,
      item_total: 15000,
    };
    const { edge, store } = setup(existing);

    await store.addItem('1042', biryani);

    expect(edge.calls).toEqual(['GET', 'POST']);
    expect(edge.posts[0]!.cartItems.map((i) => [i.menu_item_id, i.quantity])).toEqual([['88002', 3], ['88001', 1]]);
  });

  it('sends the full cart with selections and never a price', async () => {
    const { edge, store } = setup();
    await store.fetchCart();
    await store.addItem('1042', biryani);
    expect(edge.posts[0]).toEqual({
      restaurantId: '1042',
      cartItems: [{ menu_item_id: '88001', quantity: 1, addons: [{ group_id: 'g1', choice_id: 'ch1' }], variants: [{ group_id: 'vg1', variation_id: 'v1' }] }],
    });
    expect(JSON.stringify(edge.posts)).not.toMatch(/price/);
  });

  it('merges an add into the line with the same cart key, and keeps different choices apart', async () => {
    const { edge, store } = setup();
    await store.fetchCart();
    await store.addItem('1042', biryani);
    await store.addItem('1042', { ...biryani, addons: [], quantity: 2 });
    const cart = await store.addItem('1042', { ...biryani, quantity: 3 });

    expect(edge.posts.at(-1)!.cartItems.map((i) => [cartKey(i), i.quantity])).toEqual([
      ['88001|ch1|v1', 4],
      ['88001|v1', 2],
    ]);
    expect(cart.cartItemsCount).toBe(6);
    expect(store.quantityOfItem('88001')).toBe(6);
  });

  it('runs two rapid adds as two sequential POSTs, the second built on the first reply', async () => {
    const { edge, store, counts } = setup();
    await store.fetchCart();
    counts.length = 0;
    edge.holdPosts();

    const first = store.addItem('1042', biryani);
    const second = store.addItem('1042', naan);
    await settle();

    // Optimistic: both show at once, but only the first is on the wire.
    expect(store.getSnapshot()).toMatchObject({ updating: true });
    expect(store.quantityOfItem('88001')).toBe(1);
    expect(store.quantityOfItem('88002')).toBe(1);
    expect(edge.posts).toHaveLength(1);
    expect(edge.posts[0]!.cartItems.map((i) => i.menu_item_id)).toEqual(['88001']);

    await edge.releaseOne();
    expect(edge.posts).toHaveLength(2);
    expect(edge.posts[1]!.cartItems.map((i) => i.menu_item_id)).toEqual(['88001', '88002']);

    await edge.releaseOne();
    await expect(first).resolves.toMatchObject({ cartItemsCount: 1 });
    await expect(second).resolves.toMatchObject({ cartItemsCount: 2 });
    expect(store.getSnapshot()).toMatchObject({ updating: false, statusCode: 0 });
    expect(counts).toEqual([1, 2]);
  });

  it('rolls back a failed update, toasts the server message and rejects', async () => {
    const { edge, store, toasts, counts } = setup();
    await store.addItem('1042', { ...naan, quantity: 2 });
    counts.length = 0;
    edge.holdPosts();
    edge.failNextPost(200, 11, 'Sorry! Please remove some items from your cart to proceed');

    const update = store.setLineQuantity('88002', 60).catch((e: unknown) => e);
    await settle();
    expect(store.quantityOfItem('88002')).toBe(60); // optimistic
    await edge.releaseOne();

    expect(await update).toMatchObject({ statusCode: 11, message: 'Sorry! Please remove some items from your cart to proceed' });
    expect(store.quantityOfItem('88002')).toBe(2);
    expect(store.getSnapshot()).toMatchObject({ updating: false, statusCode: 11, error: 'Sorry! Please remove some items from your cart to proceed' });
    expect(toasts).toEqual(['Sorry! Please remove some items from your cart to proceed']);
    expect(counts).toEqual([]);
  });

  it('runs the next queued change after a failed one, on the last good cart', async () => {
    const { edge, store } = setup();
    await store.addItem('1042', naan);
    edge.holdPosts();
    edge.failNextPost(503, 777, "Something's broken");

    const failing = store.addItem('1042', biryani).catch((e: unknown) => e);
    const next = store.setLineQuantity('88002', 3);
    await edge.releaseOne();
    await edge.releaseOne();

    expect(await failing).toMatchObject({ statusCode: 777, httpStatus: 503 });
    await expect(next).resolves.toMatchObject({ cartItemsCount: 3 });
    expect(edge.posts.at(-1)!.cartItems.map((i) => [i.menu_item_id, i.quantity])).toEqual([['88002', 3]]);
  });

  it('rejects an add from another restaurant with DifferentRestaurantError and no call', async () => {
    const { edge, store } = setup();
    await store.addItem('1042', naan);
    const postsBefore = edge.posts.length;

    const error = await store.addItem('2001', biryani).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(DifferentRestaurantError);
    expect(error).toMatchObject({ currentRestaurantId: '1042', currentRestaurantName: 'Restaurant 1042' });
    expect(edge.posts).toHaveLength(postsBefore);
    expect(store.quantityOfItem('88002')).toBe(1);
  });

  it('replaceCart starts a new cart with only the new line', async () => {
    const { edge, store } = setup();
    await store.addItem('1042', naan);
    const cart = await store.replaceCart('2001', biryani);
    expect(edge.posts.at(-1)).toMatchObject({ restaurantId: '2001', cartItems: [{ menu_item_id: '88001', quantity: 1 }] });
    expect(cart.restaurant_details?.id).toBe('2001');
  });

  it('removes a line at quantity 0 and empties the cart with the last one', async () => {
    const { edge, store } = setup();
    await store.addItem('1042', naan);
    await store.addItem('1042', biryani);
    await store.setLineQuantity('88002', 0);
    expect(edge.posts.at(-1)!.cartItems.map((i) => i.menu_item_id)).toEqual(['88001']);

    const cart = await store.setLineQuantity('88001|ch1|v1', 0);
    expect(edge.posts.at(-1)).toEqual({ restaurantId: '', cartItems: [] });
    expect(cart.restaurant_details).toBeNull();
  });

  it('makes no call when a change changes nothing', async () => {
    const { edge, store } = setup();
    await store.addItem('1042', naan);
    const before = edge.calls.length;
    await store.setLineQuantity('88002', 1);
    await store.setLineQuantity('no-such-line', 4);
    expect(edge.calls).toHaveLength(before);
  });

  it('refuses quantities that are not whole numbers', async () => {
    const { store } = setup();
    await expect(store.addItem('1042', { ...naan, quantity: 0 })).rejects.toBeInstanceOf(RangeError);
    await expect(store.setLineQuantity('88002', 1.5)).rejects.toBeInstanceOf(RangeError);
  });

  it('clearCart empties the cart and forgets the delivery address', async () => {
    const { edge, store, forget, counts } = setup();
    await store.addItem('1042', naan);
    const cart = await store.clearCart();
    expect(edge.posts.at(-1)).toEqual({ restaurantId: '', cartItems: [] });
    expect(cart.cartItems).toEqual([]);
    expect(forget).toHaveBeenCalledOnce();
    expect(counts.at(-1)).toBe(0);
  });

  it('ignores a fetch reply that may predate an update reply', async () => {
    const { edge, store } = setup();
    await store.addItem('1042', naan);
    edge.holdPosts();
    const update = store.setLineQuantity('88002', 5);
    await settle();
    const fetched = store.fetchCart({ force: true }); // answers with the old cart while the POST is held
    await settle();
    await edge.releaseOne();
    await Promise.all([update, fetched]);
    expect(store.quantityOfItem('88002')).toBe(5);
  });
});

describe('combine-or-replace (changeLine)', () => {
  const plainBiryani = { menu_item_id: '88001', quantity: 1, variants: [{ group_id: 'vg1', variation_id: 'v1' }], addons: [] };

  it('sums quantities when the edited line becomes identical to another line', async () => {
    const { edge, store } = setup();
    await store.addItem('1042', { ...biryani, quantity: 2 });
    await store.addItem('1042', plainBiryani);
    expect(store.getSnapshot().cart?.cartItems).toHaveLength(2);

    const cart = await store.changeLine('88001|v1', { ...biryani, quantity: 1 });

    expect(cart.cartItems.map((l) => [l.cart_key, l.quantity])).toEqual([['88001|ch1|v1', 3]]);
    expect(edge.posts.at(-1)?.cartItems).toHaveLength(1);
  });

  it('replaces the line in place when the new choices match no other line', async () => {
    const { store } = setup();
    await store.addItem('1042', plainBiryani);
    const cart = await store.changeLine('88001|v1', { ...biryani, quantity: 1 });
    expect(cart.cartItems.map((l) => [l.cart_key, l.quantity])).toEqual([['88001|ch1|v1', 1]]);
    expect(cart.restaurant_details?.id).toBe('1042');
  });

  it('makes no call when the old and new lines are identical, and ignores an unknown key', async () => {
    const { edge, store } = setup();
    await store.addItem('1042', { ...biryani, quantity: 2 });
    const posts = edge.posts.length;
    await store.changeLine('88001|ch1|v1', { ...biryani, quantity: 2, addons: [...biryani.addons] });
    await store.changeLine('no-such-key', naan);
    expect(edge.posts.length).toBe(posts);
  });
});

describe('lastSelectionOf (repeat last)', () => {
  it('is null for an item not in the cart, then the last customisation added, one unit', async () => {
    const { store } = setup();
    expect(store.lastSelectionOf('88001')).toBeNull();
    await store.addItem('1042', { ...biryani, quantity: 3 });
    const other = { ...biryani, addons: [{ group_id: 'g1', choice_id: 'ch2' }] };
    await store.addItem('1042', other);
    expect(store.lastSelectionOf('88001')).toEqual({ ...other, quantity: 1 });
  });

  it('falls back to the newest line of the item in a fetched cart', async () => {
    const { store } = setup();
    await store.addItem('1042', { ...biryani, quantity: 1 });
    store.resetCart();
    await store.fetchCart();
    expect(store.lastSelectionOf('88001')).toEqual({ menu_item_id: '88001', quantity: 1, addons: biryani.addons, variants: biryani.variants });
  });

  it('adding the repeated selection merges into the same line (one line, quantity 2)', async () => {
    const { store } = setup();
    await store.addItem('1042', biryani);
    await store.addItem('1042', store.lastSelectionOf('88001')!);
    expect(store.getSnapshot().cart?.cartItems.map((l) => [l.cart_key, l.quantity])).toEqual([['88001|ch1|v1', 2]]);
  });
});

describe('lastAddedItemId', () => {
  it('is null after the first load, then the first line that is new or grew', async () => {
    const { store } = setup();
    await store.fetchCart();
    expect(store.getSnapshot().lastAddedItemId).toBeNull();

    await store.addItem('1042', naan);
    expect(store.getSnapshot().lastAddedItemId).toBe('88002');
    await store.addItem('1042', biryani);
    expect(store.getSnapshot().lastAddedItemId).toBe('88001');
    await store.setLineQuantity('88002', 3);
    expect(store.getSnapshot().lastAddedItemId).toBe('88002');
  });

  it('is kept when a reply adds nothing, and cleared by removeLastAddedItemId and resetCart', async () => {
    const { store } = setup();
    await store.addItem('1042', { ...naan, quantity: 2 });
    await store.addItem('1042', biryani);
    await store.setLineQuantity('88002', 1); // a decrease adds nothing
    expect(store.getSnapshot().lastAddedItemId).toBe('88001');
    await store.fetchCart({ force: true });
    expect(store.getSnapshot().lastAddedItemId).toBe('88001');

    store.removeLastAddedItemId();
    expect(store.getSnapshot().lastAddedItemId).toBeNull();
    await store.addItem('1042', naan);
    store.resetCart();
    expect(store.getSnapshot().lastAddedItemId).toBeNull();
  });
});

describe('states shown with the cart (docs/edge-api.md: 6, 10, 41 come with data)', () => {
  it('keeps the cart and its status when the restaurant is closed (6) or the address is unknown (10)', async () => {
    for (const [code, message] of [
      [6, 'Restaurant is currently closed'],
      [10, 'Sorry! This address is not available. Please select another address'],
    ] as const) {
      const { edge, store, toasts } = setup();
      await store.addItem('1042', naan);
      edge.fetch.mockImplementationOnce(async () => new Response(JSON.stringify(edge.envelope(edge.server, code, message)), { status: 200 }));
      const cart = await store.fetchCart({ force: true });
      expect(cart.cartItems).toHaveLength(1);
      expect(store.getSnapshot()).toMatchObject({ statusCode: code, error: null, cart: { cartItemsCount: 1 } });
      expect(toasts).toEqual([]);
    }
  });

  it('treats a refusal without a cart (6 when adding to a closed restaurant) as a failure that rolls back', async () => {
    const { edge, store, toasts } = setup();
    await store.addItem('1042', naan);
    edge.failNextPost(200, 6, 'Restaurant is currently closed');
    await expect(store.addItem('1042', biryani)).rejects.toMatchObject({ statusCode: 6 });
    expect(store.quantityOfItem('88001')).toBe(0);
    expect(toasts).toEqual(['Restaurant is currently closed']);
  });
});

describe('coupons', () => {
  it('applies a coupon through cart/applyCoupon and shows the reply', async () => {
    const { edge, store } = setup();
    await store.addItem('1042', naan);
    const cart = await store.applyCoupon(' TIFFIN20 ');
    expect(edge.metaPosts).toEqual([['/api/cart/applyCoupon', { couponCode: 'TIFFIN20' }]]);
    expect(cart.coupon_code).toBe('TIFFIN20');
    expect(store.getSnapshot().cart?.discount_message).toBe('You saved ₹20 with TIFFIN20');
  });

  it("rejects a coupon that does not apply with the server's reason, without a toast or a changed status", async () => {
    const { store, toasts } = setup();
    await store.addItem('1042', naan);
    await expect(store.applyCoupon('NOPE')).rejects.toMatchObject({ message: 'Invalid coupon code' });
    expect(toasts).toEqual([]);
    expect(store.getSnapshot()).toMatchObject({ statusCode: 0, error: null, cart: { cartItemsCount: 1 } });
  });

  it('removes the coupon, and makes no call when there is none', async () => {
    const { edge, store } = setup();
    await store.addItem('1042', naan);
    await store.removeCoupon();
    expect(edge.metaPosts).toEqual([]);
    await store.applyCoupon('TIFFIN20');
    const cart = await store.removeCoupon();
    expect(edge.metaPosts.at(-1)).toEqual(['/api/cart/removeCoupon', {}]);
    expect(cart.coupon_code).toBe('');
  });

  it('removes a reward (the free item) only when the cart has one', async () => {
    const { edge, store } = setup();
    await store.addItem('1042', naan);
    await store.removeReward();
    expect(edge.metaPosts).toEqual([]);
    const freebie = { id: 'freebie-1042', name: 'Free Delight', quantity: 1, final_price: 0, rewardType: 'Freebie', message: '1 Free Delight for you' };
    edge.setServer({ ...edge.server, coupon_code: 'DELIGHT', cartFreebieItems: [freebie] });
    await store.fetchCart({ force: true });
    const cart = await store.removeReward();
    expect(edge.metaPosts).toEqual([['/api/cart/removeReward', {}]]);
    expect(cart.cartFreebieItems).toEqual([]);
  });

  it('keeps the coupon when lines change (the whole-cart update never drops it)', async () => {
    const { edge, store } = setup();
    await store.addItem('1042', naan);
    await store.applyCoupon('TIFFIN20');
    edge.holdPosts();
    const update = store.setLineQuantity('88002', 2);
    await settle();
    expect(store.getSnapshot().cart).toMatchObject({ coupon_code: 'TIFFIN20', cartItemsCount: 2 }); // optimistic keeps it
    await edge.releaseOne();
    await expect(update).resolves.toMatchObject({ coupon_code: 'TIFFIN20', cartItemsCount: 2 });
  });
});

describe('order note and cutlery (kept with the cart)', () => {
  it('sends the sanitised note alone (no lines), shows it at once, and makes no call when unchanged', async () => {
    const { edge, store } = setup();
    await store.addItem('1042', naan);
    edge.holdPosts();
    const saved = store.setOrderNote('Less <spicy> & hot');
    await settle();
    expect(store.getSnapshot().cart?.order_comments).toBe('Less spicy  hot');
    await edge.releaseOne();
    await saved;
    expect(edge.metaPosts).toEqual([['/api/cart', { order_comments: 'Less spicy  hot' }]]);
    await store.setOrderNote('Less spicy  hot');
    expect(edge.metaPosts).toHaveLength(1);
  });

  it("sends the cutlery choice for the cart's restaurant only when it changes", async () => {
    const { edge, store } = setup();
    await store.addItem('1042', naan);
    await store.setCutlerySelection(false); // the default already
    expect(edge.metaPosts).toEqual([]);
    const cart = await store.setCutlerySelection(true);
    expect(edge.metaPosts).toEqual([['/api/cart', { cutlerySelection: { restaurantId: '1042', selected: true } }]]);
    expect(cart.cutlerySelection).toEqual({ restaurantId: '1042', selected: true });
  });

  it('makes no note or cutlery call for an empty cart', async () => {
    const { edge, store } = setup();
    await store.fetchCart();
    await store.setOrderNote('hello');
    await store.setCutlerySelection(true);
    expect(edge.metaPosts).toEqual([]);
  });
});

describe("a guest's copy in the browser (cartV2)", () => {
  function guestSetup(options: { signedIn?: boolean; stored?: GuestCartCopy | null } = {}) {
    const edge = fakeCartEdge();
    const client = createApiClient({ fetch: edge.fetch as unknown as typeof fetch, sleep: async () => {} });
    const values = new Map<string, string>();
    const storage = { getItem: (k: string) => values.get(k) ?? null, setItem: (k: string, v: string) => void values.set(k, v), removeItem: (k: string) => void values.delete(k) };
    const copy = createGuestCartCopy(() => storage);
    if (options.stored) copy.write(options.stored);
    const user = { signedIn: options.signedIn ?? false };
    const toasts: string[] = [];
    const counts: number[] = [];
    const store = createCartStore({ client, toast: (t) => toasts.push(t), announce: (c) => counts.push(c), guest: { isGuest: () => !user.signedIn, copy } });
    return { edge, store, copy, values, user, toasts, counts };
  }

  const saved: GuestCartCopy = {
    restaurantId: '1042',
    addressId: null,
    cartItems: [
      { menu_item_id: '88001', quantity: 2, addons: [{ group_id: 'g1', choice_id: 'ch1' }], variants: [{ group_id: 'vg1', variation_id: 'v1' }] },
      { menu_item_id: '88002', quantity: 1, addons: [], variants: [] },
    ],
  };

  it("copies the server's answer to every update, choices only, and forgets it when the cart empties", async () => {
    const { store, copy, values } = guestSetup();
    await store.addItem('1042', { ...biryani, quantity: 2 });
    await store.addItem('1042', naan);

    expect(copy.read()).toEqual(saved);
    expect(values.get(GUEST_CART_KEY)).not.toMatch(/price|Item 88001/);

    await store.setLineQuantity(cartKey(naan), 0);
    expect(copy.read()?.cartItems.map((l) => l.menu_item_id)).toEqual(['88001']);
    await store.clearCart();
    expect(values.has(GUEST_CART_KEY)).toBe(false);
  });

  it('sends the copy back when the first fetch finds no cart, and shows the priced answer', async () => {
    const { edge, store, copy, counts } = guestSetup({ stored: saved });

    const cart = await store.fetchCart();

    expect(edge.calls).toEqual(['GET', 'POST']);
    expect(edge.posts).toEqual([{ restaurantId: '1042', cartItems: saved.cartItems }]);
    // The server priced it: 2 × (10000 + 3000) + 1 × 10000.
    expect(cart).toMatchObject({ restaurant_details: { id: '1042' }, cartItemsCount: 3, item_total: 36000 });
    expect(store.getSnapshot()).toMatchObject({ cart: { item_total: 36000 }, fetching: false, lastAddedItemId: null });
    expect(counts).toEqual([3]);
    expect(copy.read()).toEqual(saved);
  });

  it('builds a change made while restoring on the restored cart', async () => {
    const { edge, store } = guestSetup({ stored: saved });
    edge.holdPosts();
    const fetched = store.fetchCart();
    const added = store.addItem('1042', { menu_item_id: '88003', quantity: 1 });
    await settle();
    expect(edge.posts).toHaveLength(1); // only the restore so far
    await edge.releaseOne();
    await fetched;
    await edge.releaseOne();
    const cart = await added;

    expect(edge.posts[1]?.cartItems.map((l) => `${l.menu_item_id}×${l.quantity}`)).toEqual(['88001×2', '88002×1', '88003×1']);
    expect(cart.cartItemsCount).toBe(4);
  });

  it('leaves a server cart alone: no restore, and a fetch does not rewrite the copy', async () => {
    const { edge, store, copy } = guestSetup({ stored: saved });
    const line = { cart_key: '88009', menu_item_id: '88009', name: 'Dosa', quantity: 1, isVeg: 1, in_stock: 1, base_price: 9000, final_price: 9000, price_changed: false, previous_price: null, addons: [], variants: [] };
    edge.setServer({ ...emptyCart('c1'), restaurant_details: { id: '7', name: 'R', area_name: 'A', cloudinary_image_id: 'r', opened: true }, cartItems: [line], cartItemsCount: 1, item_total: 9000 });

    const cart = await store.fetchCart();

    expect(edge.calls).toEqual(['GET']);
    expect(cart.restaurant_details?.id).toBe('7');
    expect(copy.read()).toEqual(saved);
  });

  it('restores at most once a page', async () => {
    const { edge, store } = guestSetup({ stored: saved });
    await store.fetchCart();
    edge.setServer({ ...emptyCart('c1'), restaurant_details: null, cartItems: [], cartItemsCount: 0, item_total: 0 });
    edge.calls.length = 0;

    await store.fetchCart({ force: true });

    expect(edge.calls).toEqual(['GET']);
    expect(store.getSnapshot().cart?.cartItemsCount).toBe(0);
  });

  it('drops a copy the server refuses, without a toast, and keeps one it could not answer for', async () => {
    const refused = guestSetup({ stored: saved });
    refused.edge.failNextPost(404, 404, 'Restaurant not found');
    const cart = await refused.store.fetchCart();
    expect(cart.cartItems).toEqual([]);
    expect(refused.copy.read()).toBeNull();
    expect(refused.toasts).toEqual([]);
    expect(refused.store.getSnapshot()).toMatchObject({ statusCode: 0, error: null });

    const outage = guestSetup({ stored: saved });
    outage.edge.failNextPost(503, 777, 'Something went wrong');
    await outage.store.fetchCart();
    expect(outage.copy.read()).toEqual(saved);
    expect(outage.toasts).toEqual([]);
  });

  it('keeps no copy for a signed-in customer and drops one left behind', async () => {
    const { edge, store, values } = guestSetup({ signedIn: true, stored: saved });
    await store.fetchCart();
    expect(edge.calls).toEqual(['GET']);
    expect(values.has(GUEST_CART_KEY)).toBe(false);

    await store.addItem('1042', naan);
    expect(values.has(GUEST_CART_KEY)).toBe(false);
  });

  it('after sign-in, updates stop being copied and the copy is cleared', async () => {
    const { store, user, values } = guestSetup();
    await store.addItem('1042', naan);
    expect(values.has(GUEST_CART_KEY)).toBe(true);
    user.signedIn = true;
    await store.addItem('1042', naan);
    expect(values.has(GUEST_CART_KEY)).toBe(false);
  });
});
