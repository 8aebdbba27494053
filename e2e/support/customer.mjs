// What the checkout and order tests share: a signed-up customer (OTP from the development outbox)
// with a saved address in Koramangala and a plain dish in the cart, set up through the API in the
// page's own cookie jar so the page is signed in too.
import { expect } from '@playwright/test';

export const KORAMANGALA = { lat: 12.9352, lng: 77.6245, address: 'Koramangala, Bengaluru, Karnataka, India', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };

/** The cookie that makes a browser a visitor located in Koramangala, as the location box leaves it. */
export const koramangalaCookie = (baseURL) => ({ name: 'userLocation', value: encodeURIComponent(JSON.stringify(KORAMANGALA)), url: baseURL });

/** A fresh 10-digit mobile number starting 6-9, so tests and re-runs never share an account. */
export const newMobile = () => `${6 + Math.floor(Math.random() * 4)}${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

export async function data(response) {
  expect(response.ok(), `${response.url()} → ${response.status()}`).toBe(true);
  const body = await response.json();
  expect([0, 8, 9], body.statusMessage).toContain(body.statusCode);
  return body;
}

let found = null;
/** An open restaurant near Koramangala and one of its in-stock dishes that need no customisation. */
export async function restaurantWithPlainDish(request) {
  if (found) return found;
  const listing = (await data(await request.get(`/api/restaurants/list/v5?lat=${KORAMANGALA.lat}&lng=${KORAMANGALA.lng}&page_type=DESKTOP_WEB_LISTING&offset=0`))).data;
  for (const { data: restaurant } of listing.cards) {
    const menuPage = (await data(await request.get(`/api/menu/pl?restaurantId=${restaurant.id}&lat=${KORAMANGALA.lat}&lng=${KORAMANGALA.lng}`))).data;
    if ((menuPage.restaurant.deliveryState ?? 'OPEN') !== 'OPEN') continue;
    const dish = Object.values(menuPage.menu.items).find((i) => i.inStock === 1 && !i.customisable);
    if (dish) return (found = { restaurant: menuPage.restaurant, dish });
  }
  throw new Error('no open restaurant near Koramangala with a plain dish');
}

/**
 * Signs a new customer up through the API in the page's cookie jar (so the page is signed in too),
 * with the OTP from the development outbox. Answers their mobile and the session's CSRF token.
 */
export async function signUp(request, name = 'Checkout Tester') {
  const mobile = newMobile();
  const guest = await (await request.get('/api/cart')).json();
  const since = Date.now() - 1000;
  await data(await request.post('/api/auth/otp', { data: { mobile, _csrf: guest.csrfToken } }));
  let code = null;
  await expect
    .poll(
      async () => {
        const reply = await request.get(`/api/dev/sms?mobile=${mobile}`);
        const message = (await reply.json()).data?.messages?.find((m) => m.sentAt >= since);
        code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1] ?? null;
        return code;
      },
      { message: `an OTP for ${mobile} in the outbox` },
    )
    .not.toBeNull();
  const signedIn = await data(await request.post('/api/auth/verify-otp', { data: { mobile, otp: code, name, email: '', _csrf: guest.csrfToken } }));
  return { mobile, csrf: signedIn.csrfToken };
}

/**
 * Signs a new customer up through the API in the page's cookie jar (so the page is signed in too),
 * saves a HOME address in Koramangala and puts a plain dish in the cart, enough of it to pass the
 * restaurant's minimum order.
 */
export async function customerWithCart(page, context, baseURL) {
  const request = page.request;
  await context.addCookies([{ name: 'userLocation', value: encodeURIComponent(JSON.stringify(KORAMANGALA)), url: baseURL }]);
  const { restaurant, dish } = await restaurantWithPlainDish(request);
  const { mobile, csrf } = await signUp(request);
  const saved = await saveKoramangalaHome(request, { mobile, csrf });
  const quantity = await fillCart(request, { restaurant, dish, csrf });
  return { restaurant, dish, quantity, address: saved, csrf, mobile };
}

/** Saves a HOME address in Koramangala for the signed-in customer and answers it. */
export async function saveKoramangalaHome(request, { mobile, csrf }) {
  const reply = await request.post('/api/address', {
    data: {
      annotation: 'HOME',
      address: KORAMANGALA.address,
      area: KORAMANGALA.area,
      city: KORAMANGALA.city,
      flat_no: 'Flat 42',
      landmark: 'Near the park',
      lat: KORAMANGALA.lat,
      lng: KORAMANGALA.lng,
      mobile,
      instructions: '',
      _csrf: csrf,
    },
  });
  return (await data(reply)).data.address;
}

/**
 * Puts enough of `dish` in the caller's cart to pass the restaurant's minimum order (the cart says
 * so while it is not) and answers the quantity.
 */
export async function fillCart(request, { restaurant, dish, csrf }) {
  let quantity = 0;
  let cart;
  do {
    quantity += 1;
    cart = (await data(await request.post('/api/cart', { data: { restaurantId: restaurant.id, cartItems: [{ menu_item_id: dish.id, quantity, addons: [], variants: [] }], _csrf: csrf } }))).data;
  } while (cart.min_cart_message && quantity < 10);
  expect(cart.min_cart_message ?? null, 'the cart meets the minimum order').toBeNull();
  return quantity;
}


/** Fills the cart again (placing an order empties it); `quantity` defaults to what it held at first. */
export async function refill(page, customer, quantity = customer.quantity) {
  await data(
    await page.request.post('/api/cart', {
      data: {
        restaurantId: customer.restaurant.id,
        cartItems: [{ menu_item_id: customer.dish.id, quantity, addons: [], variants: [] }],
        _csrf: customer.csrf,
      },
    }),
  );
}

/** Paise as the app's rupee formatter shows them: `55800` → `₹558`, `24950` → `₹249.50`. */
export function rupees(paise) {
  const digits = paise % 100 === 0 ? 0 : 2;
  return `₹${new Intl.NumberFormat('en-IN', { minimumFractionDigits: digits, maximumFractionDigits: 2 }).format(paise / 100)}`;
}

/**
 * Gives the customer Tiffin Money the way a customer gets it: their cart is paid by the sandbox card
 * through the API and the order cancelled with the refund to Tiffin Money (less any cancellation
 * fee). The cart is empty afterwards. Answers the Tiffin Money balance in paise.
 */
export async function tiffinMoneyFromCancelledOrder(page, customer) {
  const request = page.request;
  const priced = await data(await request.post('/api/cart/calculate', { data: { address_id: customer.address.id, paymentMethod: 'card', _csrf: customer.csrf } }));
  const placed = await data(
    await request.post('/api/order/place-v2', {
      data: {
        idempotency_key: `e2e-money-${customer.mobile}`,
        order: { address_id: customer.address.id, to_pay: priced.data.bill.to_pay },
        payment: { method: 'card', card: { number: '4111 1111 1111 1111', expiry_month: 12, expiry_year: 2031, cvv: '123', holder_name: 'Money Tester', save_card: false } },
        _csrf: customer.csrf,
      },
    }),
  );
  expect(placed.data.order_status).toBe('PLACED');
  await data(await request.post(`/api/cancel-only/order/${encodeURIComponent(placed.data.order_id)}`, { data: { refund_to: 'TIFFIN_MONEY', _csrf: customer.csrf } }));
  let balance = 0;
  await expect
    .poll(
      async () => {
        balance = (await data(await request.get('/api/profile/money'))).data.balance;
        return balance;
      },
      { message: 'the refund reached Tiffin Money' },
    )
    .toBeGreaterThan(0);
  return balance;
}
