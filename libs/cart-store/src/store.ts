/**
 * The cart store: one browser-side cart, kept in step with the edge.
 *
 * - **Full cart on every update.** A change is a pure transform (`draft.ts`); when its turn comes
 *   it is applied to the newest server reply and the whole result is POSTed (`restaurantId` +
 *   `cartItems` of selections, never a price). The server's reply becomes the new truth.
 * - **One update at a time.** Changes wait in a FIFO queue; each one is built on the reply to the
 *   one before, so a second rapid "add" POSTs a cart that already holds the first.
 * - **Optimistic.** What subscribers see is the last reply with every queued or in-flight change
 *   applied, so quantities move at once. A failed change drops out of the queue (its effect
 *   disappears: the rollback), the failure's message is toasted, and the promise rejects.
 * - **Fetch.** The first fetch on the cart page takes the cart the page was served with (the
 *   edge's initial state) instead of asking again. A fetch joins one already in flight unless forced. A fetch reply that may predate an
 *   update's reply (an update was in flight or started meanwhile) is not applied: the update's
 *   reply is newer. Before the first update the cart is fetched, so an update can never overwrite
 *   a server cart this page has not seen.
 * - **Announce.** Every applied fetch or update reply announces its item count (`cart:updated`).
 * - **A guest's copy** (`guest-cart.ts`, when `deps.guest` is given). While no one is signed in,
 *   every applied update reply is copied to the browser (choices only). When a fetch finds no cart
 *   but the copy holds one (the guest session expired or its cookie was cleared), the fetch sends
 *   the copy as a normal update before it answers, so the server prices it and whatever waits for
 *   the fetch is built on the restored cart; once a page. Signed in, the copy is dropped: the cart
 *   then lives with the account (docs/cart-merge.md).
 *
 * It must never price anything: prices shown before a reply are the last reply's unit prices.
 */
import { ApiError, isApiError, isSuccess, statusOf, type ApiClient, type Envelope } from '@tiffin/api-client';
import type { Cart } from '@tiffin/contract';
import { addLine, assertQuantity, changeLine, emptyCart, selectionOfLine, setQuantity, singleLine, toUpdateRequest } from './draft';
import { isDifferentRestaurantError } from './errors';
import { guestCartCopyOf, restoreRequest, type GuestCartCopyStore } from './guest-cart';
import { cutlerySelected, sanitiseNote } from './preferences';
import type { CartSelection, CartSnapshot, OptimisticDisplay } from './types';

interface CartStoreDeps {
  client: ApiClient;
  /**
   * The reply to `GET cart` with `query` that the page was served with, given once (the edge's
   * initial state on the cart page) to a fetch that is not forced; absent or undefined: the fetch
   * asks the edge.
   */
  takeInitial?: (query: Record<string, string>) => Envelope<Cart> | undefined;
  /** Shows a failed update's message (the shell's toast in production). */
  toast: (text: string) => void;
  /** Announces the item count after every applied reply (`cart:updated` in production). */
  announce: (count: number) => void;
  /** Clearing the cart removes the saved delivery address id. */
  forgetDeliveryAddress?: () => void;
  /** The guest's copy of the cart in the browser (`guest-cart.ts`); absent: none is kept. */
  guest?: {
    /** No one is signed in (the copy is kept only then). */
    isGuest: () => boolean;
    copy: GuestCartCopyStore;
  };
}

/** A call a change makes instead of POSTing the whole cart (coupons, note, cutlery). */
interface ChangeCall {
  path: string;
  body: object;
}

interface QueuedChange {
  /** Applies the change to a cart (the optimistic display); may throw (DifferentRestaurantError). */
  apply: (base: Cart) => Cart;
  /** False only when the result does not depend on the server's cart (clearing it). */
  needsBase: boolean;
  /**
   * The call to make, given the server's cart; null makes none. Absent: POST cart with the whole
   * changed cart (the lines), skipped when the lines do not change.
   */
  call?: (base: Cart) => ChangeCall | null;
  /** A failure is not toasted nor kept as the cart's status (the caller shows it, e.g. a coupon's reason). */
  quiet?: boolean;
  resolve: (cart: Cart) => void;
  reject: (error: unknown) => void;
}

const CONNECTION_MESSAGE = 'Please check your internet connection and try again.';
const GENERIC_MESSAGE = 'Oops! Something went wrong.';

/** Status code of a failure, as `CartSnapshot.statusCode` documents. */
function failureStatus(error: unknown): number {
  if (!isApiError(error)) return -1;
  if (error.kind === 'http') return error.httpStatus ?? error.statusCode;
  if (error.kind === 'status') return error.statusCode;
  return -1;
}

/** The words a customer sees for a failure: the server's statusMessage when it sent one. */
export function failureMessage(error: unknown): string {
  if (!isApiError(error)) return GENERIC_MESSAGE;
  if (error.kind === 'network') return CONNECTION_MESSAGE;
  if (error.kind === 'parse') return GENERIC_MESSAGE;
  return error.message || GENERIC_MESSAGE;
}

function normalise(data: Cart): Cart {
  return { ...emptyCart(), ...data, cartItems: Array.isArray(data.cartItems) ? data.cartItems : [] };
}

/**
 * States the edge reports *with* the cart so the page can show it (docs/edge-api.md "Status codes
 * of the cart family"): 6 restaurant closed, 10 address not found, 41 insufficient cart value.
 * Without a cart they are refusals.
 */
const SHOWN_WITH_CART = new Set([6, 10, 41]);

/** The envelope's cart and status, or an `ApiError` when the call was refused. */
async function unwrap(request: Promise<Envelope<Cart>>): Promise<{ cart: Cart; code: number }> {
  const reply = await request;
  const code = statusOf(reply);
  const shown = isSuccess(reply, 'cart') || SHOWN_WITH_CART.has(code);
  if (!shown || !reply.data || typeof reply.data !== 'object') throw new ApiError({ kind: 'status', reply });
  return { cart: normalise(reply.data), code };
}

/**
 * The menu item of the first line of `next` that is new or holds more units than in
 * `previous` (compared by cart key), or null when no line grew.
 */
function firstAddedItem(previous: Cart, next: Cart): string | null {
  const before = new Map(previous.cartItems.map((line) => [line.cart_key, line.quantity]));
  const grown = next.cartItems.find((line) => line.quantity > (before.get(line.cart_key) ?? 0));
  return grown ? grown.menu_item_id : null;
}

/**
 * A failure that says nothing about the cart itself (no answer, overload, an outage): a guest's
 * copy that failed to restore for one of these is kept for the next page; any other refusal
 * (an item or restaurant that no longer exists, …) would fail again, so the copy is dropped.
 */
function isTransientFailure(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.kind === 'network' || error.kind === 'parse') return true;
  const status = error.httpStatus ?? 0;
  return error.kind === 'http' && (status === 429 || status >= 500);
}

function isEmptyCart(cart: Cart): boolean {
  return !cart.restaurant_details || cart.cartItems.length === 0;
}

function samePayload(a: Cart, b: Cart): boolean {
  return JSON.stringify(toUpdateRequest(a)) === JSON.stringify(toUpdateRequest(b));
}

export function createCartStore(deps: CartStoreDeps) {
  /** The server's last applied reply; null before the first one and after a failed fetch. */
  let confirmed: Cart | null = null;
  /** True once `confirmed` reflects the server (an update may then be built on it). */
  let loaded = false;
  let statusCode = 0;
  let error: string | null = null;
  /** The first line whose quantity went up or that is new in the last applied reply. */
  let lastAddedItemId: string | null = null;

  let fetchInFlight: Promise<Cart> | null = null;
  /** Bumped by every fetch (and reset), so only the newest fetch's reply is applied. */
  let fetchSeq = 0;
  let postInFlight = false;
  let postsStarted = 0;
  /** This page has sent the guest's copy back once (or found nothing to send); reset by `resetCart`. */
  let restoreTried = false;
  /** The restoring POST in flight: a change waits for it, so it never races the restore. */
  let restoring: Promise<unknown> | null = null;

  const queue: QueuedChange[] = [];
  let draining = false;
  /** Item id → the last selection this page added for it. */
  const lastSelections = new Map<string, CartSelection>();

  function remember(sel: CartSelection): void {
    lastSelections.set(String(sel.menu_item_id), { ...sel, quantity: 1 });
  }

  const listeners = new Set<() => void>();
  let snapshot: CartSnapshot = { cart: null, fetching: false, updating: false, statusCode, error, lastAddedItemId };

  function displayed(): Cart | null {
    if (!loaded && queue.length === 0) return null;
    let cart = confirmed ?? emptyCart();
    for (const change of queue) {
      try {
        cart = change.apply(cart);
      } catch {
        // Shown as a failure when its turn comes; until then it simply has no effect.
      }
    }
    return cart;
  }

  function publish(): void {
    snapshot = { cart: displayed(), fetching: fetchInFlight !== null, updating: queue.length > 0, statusCode, error, lastAddedItemId };
    for (const listener of [...listeners]) listener();
  }

  function accept(cart: Cart, code: number): void {
    // The first reply a page sees is not an "add": only later replies are compared.
    if (loaded && confirmed) lastAddedItemId = firstAddedItem(confirmed, cart) ?? lastAddedItemId;
    confirmed = cart;
    loaded = true;
    statusCode = code;
    error = null;
  }

  function fail(failure: unknown): void {
    statusCode = failureStatus(failure);
    error = failureMessage(failure);
  }

  /** After an applied update: the guest's copy follows the server's answer; signed in, none is kept. */
  function keepGuestCopy(cart: Cart): void {
    const guest = deps.guest;
    if (!guest) return;
    if (guest.isGuest()) guest.copy.write(guestCartCopyOf(cart));
    else guest.copy.clear();
  }

  /**
   * A fetch found `reply`. When that is no cart, no one is signed in and the browser holds a copy
   * (first time this page), the copy is POSTed as an update and the server's priced answer is
   * returned instead; otherwise `reply` itself.
   */
  async function restoreGuestCopy(reply: { cart: Cart; code: number }): Promise<{ cart: Cart; code: number }> {
    const guest = deps.guest;
    if (!guest || restoreTried) return reply;
    if (!guest.isGuest()) {
      guest.copy.clear();
      return reply;
    }
    if (!isEmptyCart(reply.cart)) return reply;
    const copy = guest.copy.read();
    if (!copy) return reply;
    restoreTried = true;
    // A fetch forced meanwhile may predate this POST's answer, as with any update.
    postInFlight = true;
    const request = unwrap(deps.client.post<Cart>('cart', restoreRequest(copy), { family: 'cart' }));
    restoring = request.catch(() => undefined);
    try {
      const restored = await request;
      guest.copy.write(guestCartCopyOf(restored.cart));
      return restored;
    } catch (failure) {
      if (!isTransientFailure(failure)) guest.copy.clear();
      // The page shows the (empty) cart it found; nothing the customer did failed, so no toast.
      return reply;
    } finally {
      postInFlight = false;
      restoring = null;
    }
  }

  function announce(cart: Cart): void {
    deps.announce(cart.cartItemsCount ?? cart.cartItems.reduce((sum, line) => sum + line.quantity, 0));
  }

  /** `addressId` bills the cart to that saved address (`?address_id=`) instead of the cookie's. */
  function fetchCart(options: { force?: boolean; addressId?: string | null } = {}): Promise<Cart> {
    if (fetchInFlight && !options.force) return fetchInFlight;
    fetchSeq += 1;
    const seq = fetchSeq;
    const postsAtStart = postsStarted;
    const postBusyAtStart = postInFlight;
    const superseded = () => seq !== fetchSeq || postBusyAtStart || postsStarted !== postsAtStart;

    let promise: Promise<Cart> | null = null;
    const settle = () => {
      if (fetchInFlight === promise) fetchInFlight = null;
    };
    const run = async (): Promise<Cart> => {
      try {
        const query: Record<string, string> = options.addressId ? { address_id: options.addressId } : {};
        // A forced fetch wants the server's cart as it is now (a sign-in, a retry), never the page's.
        const carried = options.force ? undefined : deps.takeInitial?.(query);
        let reply = await unwrap(carried ? Promise.resolve(carried) : deps.client.get<Cart>('cart', options.addressId ? query : undefined, { family: 'cart' }));
        if (!superseded()) reply = await restoreGuestCopy(reply);
        const { cart, code } = reply;
        settle();
        if (superseded()) {
          publish();
          return confirmed ?? cart;
        }
        accept(cart, code);
        publish();
        announce(cart);
        return cart;
      } catch (failure) {
        settle();
        if (!superseded()) {
          // On fetch failure the cart resets, and the status is kept for the page.
          confirmed = null;
          loaded = false;
          fail(failure);
        }
        publish();
        throw failure;
      }
    };
    promise = run();
    fetchInFlight = promise;
    publish();
    return promise;
  }

  async function runChange(change: QueuedChange): Promise<{ cart: Cart; code: number } | null> {
    // Never build an update on a cart this page has not seen from the server. A superseded fetch
    // leaves `loaded` false, so join whichever fetch is newest until one applies or fails.
    while (restoring) await restoring;
    while (change.needsBase && !loaded) await fetchCart();
    const base = confirmed ?? emptyCart();
    const next = change.apply(base);
    let call: ChangeCall | null;
    if (change.call) {
      call = change.call(base);
    } else {
      call = loaded && samePayload(base, next) ? null : { path: 'cart', body: toUpdateRequest(next) };
    }
    if (!call) return null; // nothing to change: no call
    postInFlight = true;
    postsStarted += 1;
    try {
      return await unwrap(deps.client.post<Cart>(call.path, call.body, { family: 'cart' }));
    } finally {
      postInFlight = false;
    }
  }

  async function drain(): Promise<void> {
    if (draining) return;
    draining = true;
    try {
      while (queue.length > 0) {
        const change = queue[0]!;
        try {
          const result = await runChange(change);
          queue.shift();
          if (result) {
            accept(result.cart, result.code);
            keepGuestCopy(result.cart);
          }
          publish();
          const cart = confirmed ?? emptyCart();
          if (result) announce(cart);
          change.resolve(cart);
        } catch (failure) {
          queue.shift();
          if (!change.quiet && !isDifferentRestaurantError(failure) && !(failure instanceof RangeError)) {
            fail(failure);
            deps.toast(failureMessage(failure));
          }
          publish();
          change.reject(failure);
        }
      }
    } finally {
      draining = false;
    }
  }

  function enqueue(
    apply: QueuedChange['apply'],
    needsBase = true,
    options: Pick<QueuedChange, 'call' | 'quiet'> = {},
  ): Promise<Cart> {
    return new Promise<Cart>((resolve, reject) => {
      queue.push({ apply, needsBase, ...options, resolve, reject });
      publish();
      void drain();
    });
  }

  /** The cart as displayed now (optimistic), or an empty one. */
  function current(): Cart {
    return snapshot.cart ?? emptyCart();
  }

  return {
    getSnapshot: (): CartSnapshot => snapshot,

    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    fetchCart,

    addItem(restaurantId: string, sel: CartSelection, display?: OptimisticDisplay): Promise<Cart> {
      try {
        assertQuantity(sel.quantity, false);
        // Checked against what the customer sees now, so the menu can ask at once…
        addLine(current(), restaurantId, sel, display);
      } catch (failure) {
        return Promise.reject(failure);
      }
      // …and again against the server's cart when the change runs.
      return enqueue((base) => addLine(base, restaurantId, sel, display)).then((cart) => {
        remember(sel);
        return cart;
      });
    },

    replaceCart(restaurantId: string, sel: CartSelection, display?: OptimisticDisplay): Promise<Cart> {
      try {
        assertQuantity(sel.quantity, false);
      } catch (failure) {
        return Promise.reject(failure);
      }
      return enqueue((base) => singleLine(base, restaurantId, sel, display)).then((cart) => {
        remember(sel);
        return cart;
      });
    },

    /**
     * Combine-or-replace: the line `key` becomes `sel`; equal to another line → the
     * quantities are summed; equal to itself → resolves with no call; unknown key → no change.
     */
    changeLine(key: string, sel: CartSelection, display?: OptimisticDisplay): Promise<Cart> {
      try {
        assertQuantity(sel.quantity, false);
      } catch (failure) {
        return Promise.reject(failure);
      }
      return enqueue((base) => changeLine(base, key, sel, display)).then((cart) => {
        remember(sel);
        return cart;
      });
    },

    setLineQuantity(key: string, quantity: number): Promise<Cart> {
      try {
        assertQuantity(quantity, true);
      } catch (failure) {
        return Promise.reject(failure);
      }
      return enqueue((base) => setQuantity(base, key, quantity));
    },

    async clearCart(): Promise<Cart> {
      const cart = await enqueue((base) => emptyCart(base.cartId), false);
      deps.forgetDeliveryAddress?.();
      return cart;
    },

    /**
     * Applies a coupon (POST cart/applyCoupon). A coupon that does not apply rejects with the
     * server's reason and changes nothing: neither toasted nor kept as the cart's status, so the
     * coupon box can show it next to the code.
     */
    applyCoupon(code: string): Promise<Cart> {
      const couponCode = code.trim();
      if (!couponCode) return Promise.reject(new RangeError('A coupon code is needed.'));
      return enqueue((base) => base, true, { quiet: true, call: () => ({ path: 'cart/applyCoupon', body: { couponCode } }) });
    },

    /** Removes the applied coupon (POST cart/removeCoupon); no call when there is none. */
    removeCoupon(): Promise<Cart> {
      return enqueue((base) => base, true, {
        call: (base) => (base.coupon_code ? { path: 'cart/removeCoupon', body: {} } : null),
      });
    },

    /** Drops a FREEBIE coupon's free item (POST cart/removeReward); no call without one. */
    removeReward(): Promise<Cart> {
      return enqueue((base) => ({ ...base, cartFreebieItems: [] }), true, {
        call: (base) => ((base.cartFreebieItems ?? []).length > 0 ? { path: 'cart/removeReward', body: {} } : null),
      });
    },

    /** Kept with the cart (sanitised); no call when unchanged. */
    setOrderNote(note: string): Promise<Cart> {
      const order_comments = sanitiseNote(note);
      return enqueue((base) => ({ ...base, order_comments }), true, {
        call: (base) => ((base.order_comments ?? '') === order_comments || isEmptyCart(base) ? null : { path: 'cart', body: { order_comments } }),
      });
    },

    /** The cutlery choice for the cart's restaurant; no call when unchanged. */
    setCutlerySelection(selected: boolean): Promise<Cart> {
      const choiceFor = (base: Cart) => (base.restaurant_details ? { restaurantId: base.restaurant_details.id, selected } : null);
      return enqueue(
        (base) => {
          const cutlerySelection = choiceFor(base);
          return cutlerySelection ? { ...base, cutlerySelection } : base;
        },
        true,
        {
          call: (base) => {
            const cutlerySelection = choiceFor(base);
            if (!cutlerySelection || cutlerySelected(base.cutlerySelection, cutlerySelection.restaurantId) === selected) return null;
            return { path: 'cart', body: { cutlerySelection } };
          },
        },
      );
    },

    quantityOfItem(menuItemId: string): number {
      const id = String(menuItemId);
      return (snapshot.cart?.cartItems ?? []).reduce((sum, line) => (line.menu_item_id === id ? sum + line.quantity : sum), 0);
    },

    linesOfItem(menuItemId: string) {
      const id = String(menuItemId);
      return (snapshot.cart?.cartItems ?? []).filter((line) => line.menu_item_id === id);
    },

    /**
     * The customisation to offer for "Repeat last" (one unit): the last one this page added for
     * the item, else the item's newest line in the cart, else null (nothing to repeat).
     */
    lastSelectionOf(menuItemId: string): CartSelection | null {
      const id = String(menuItemId);
      const lines = (snapshot.cart?.cartItems ?? []).filter((line) => line.menu_item_id === id);
      if (lines.length === 0) return null;
      const remembered = lastSelections.get(id);
      if (remembered) return { ...remembered };
      return selectionOfLine(lines[lines.length - 1]!, 1);
    },

    /**
     * Forgets the local cart (no call); queued changes that have not started are
     * rejected, and any fetch in flight is ignored when it answers. The next read fetches again.
     */
    /** Forgets which item was added last (e.g. once its tooltip has been shown). */
    removeLastAddedItemId(): void {
      if (lastAddedItemId === null) return;
      lastAddedItemId = null;
      publish();
    },

    resetCart(): void {
      const dropped = queue.splice(draining ? 1 : 0);
      lastSelections.clear();
      lastAddedItemId = null;
      confirmed = null;
      loaded = false;
      statusCode = 0;
      error = null;
      fetchSeq += 1;
      fetchInFlight = null;
      restoreTried = false;
      publish();
      for (const change of dropped) change.reject(new Error('The cart was reset.'));
    },
  };
}

