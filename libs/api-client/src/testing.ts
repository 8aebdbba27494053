/**
 * Test double of the edge for unit tests of the web apps (`@tiffin/api-client/testing`): replaces
 * `fetch` with a table of `/api/...` path → envelope `data`, or a full `{ status, body }` reply.
 * Never imported by production code.
 */
import type {
  Address,
  Cart,
  Conversation,
  ConversationMessage,
  DeskConversationResponse,
  DeskQueueEntry,
  OrderHelp,
  ListingResponse,
  MenuItem,
  MenuRestaurant,
  MoneyTransaction,
  OrderDetails,
  OrderSummary,
  PayLater,
  PaymentOffer,
  PaymentOffersResponse,
  PlatformCoupon,
  Restaurant,
  SavedCard,
  SavedVpa,
  Tracking,
  Wallet,
} from '@tiffin/contract';
import { vi } from 'vitest';
import { resetInitialReplyForTests } from './initial-reply';
import { INITIAL_STATE_ELEMENT_ID } from './session';

export interface FakeReply {
  status: number;
  body: unknown;
}

export type FakeEdgeTable = Record<string, unknown | FakeReply | ((url: URL, init?: RequestInit) => unknown)>;

export function reply(status: number, statusCode: number, statusMessage: string, data: unknown = null): FakeReply {
  return { status, body: { statusCode, statusMessage, data } };
}

function isFakeReply(value: unknown): value is FakeReply {
  return !!value && typeof value === 'object' && 'status' in value && 'body' in value;
}

/**
 * Serves the page at `page` as the edge would with its first call's reply in the initial state
 * (`firstReply`): the document's URL becomes `page` and the reply is unused. Returns the undo.
 */
export function carryFirstReply(reply: { path: string; query: Record<string, unknown>; page: string; data: unknown; statusCode?: number }): () => void {
  const previousUrl = `${window.location.pathname}${window.location.search}`;
  window.history.replaceState(null, '', reply.page);
  const script = document.createElement('script');
  script.id = INITIAL_STATE_ELEMENT_ID;
  script.type = 'application/json';
  script.textContent = JSON.stringify({ sid: 's', tid: 't', deviceId: 'd', csrfToken: 'c', user: null, firstReply: reply });
  document.head.append(script);
  resetInitialReplyForTests();
  return () => {
    script.remove();
    resetInitialReplyForTests();
    window.history.replaceState(null, '', previousUrl);
  };
}

/** Installs the fake; unknown paths answer the edge's 404 envelope. Returns the fetch mock. */
export function installFakeEdge(table: FakeEdgeTable) {
  const fetch = vi.fn(async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    let entry = table[url.pathname];
    if (typeof entry === 'function') entry = (entry as (url: URL, init?: RequestInit) => unknown)(url, init);
    const answer: FakeReply =
      entry === undefined
        ? reply(404, 404, 'Not found')
        : isFakeReply(entry)
          ? entry
          : { status: 200, body: { statusCode: 0, statusMessage: 'done successfully', data: entry, csrfToken: 'test-csrf' } };
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/**
 * A stand-in for the browser's EventSource (jsdom has none), installed as the global: the test
 * sends each server event (`send`) or the connection's failure (`fail`) by hand.
 */
export class FakeEventSource extends EventTarget {
  readyState = 0;
  closed = false;

  constructor(readonly url: string) {
    super();
  }

  close(): void {
    this.closed = true;
    this.readyState = 2;
  }

  /** A server event: `data` is sent as JSON unless it is a string already. */
  send(type: string, data: unknown): void {
    this.readyState = 1;
    this.dispatchEvent(new MessageEvent(type, { data: typeof data === 'string' ? data : JSON.stringify(data) }));
  }

  /** The connection failed or the server ended it (the browser reports both as `error`). */
  fail(): void {
    this.dispatchEvent(new Event('error'));
  }
}

/** Installs `FakeEventSource` as the global EventSource; `opened` lists every stream opened since. */
export function installFakeEventSource() {
  const opened: FakeEventSource[] = [];
  vi.stubGlobal(
    'EventSource',
    class extends FakeEventSource {
      constructor(url: string) {
        super(url);
        opened.push(this);
      }
    },
  );
  return { opened };
}

/** A cart without lines, every field as the edge sends it. */
function emptyCart(): Cart {
  return {
    cartId: 'cart-1',
    restaurant_details: null,
    cartItems: [],
    cartItemsCount: 0,
    item_total: 0,
    cart_subtotal_without_packing: 0,
    total_without_coupon_discount: null,
    bill: null,
    coupon_code: '',
    coupon_details: null,
    discount_message: null,
    discount_message_type: null,
    coupons: [],
    best_coupon: null,
    cartFreebieItems: [],
    cutlerySelection: { restaurantId: null, selected: false },
    cutlery_instruction: null,
    order_comments: '',
    address_id: null,
    addresses: [],
    serviceable: true,
    distance_km: null,
    sla_time: null,
    estimated_sla_min: null,
    estimated_sla_max: null,
    min_cart_value: 0,
    min_cart_message: null,
    cancellation_message: null,
    subscriptionItems: [],
    memberSavings: 0,
    memberSavingsMessage: null,
    subscriptionNudge: null,
    membershipUnknown: false,
    membershipMessage: null,
    paymentOffer: null,
  };
}

/** Sample payloads shaped exactly like the edge's replies (its generated types), for tests that need realistic data. */
export const fixtures = {
  /** A saved address as `POST /api/address` and `address/all` send it; the flat number leads the address. */
  address: (id: string, annotation: Address['annotation'] = 'HOME', overrides: Partial<Address> = {}): Address => ({
    id,
    annotation,
    address: `Flat ${id}, 12 1st Cross, Koramangala`,
    area: 'Koramangala',
    flat_no: `Flat ${id}`,
    landmark: '',
    lat: 12.9352,
    lng: 77.6245,
    mobile: '9876543210',
    instructions: '',
    city: 'bangalore',
    delivery_valid: 1,
    ...overrides,
  }),
  restaurant: (overrides: Partial<Restaurant> = {}): Restaurant => ({
    id: '1042',
    name: 'Meghana Biryani House',
    slug: 'meghana-biryani-house-koramangala',
    city: 'bangalore',
    areaName: 'Koramangala',
    locality: '5th Block',
    cloudinaryImageId: 'restaurant-1042',
    cuisines: ['Biryani', 'Andhra'],
    costForTwo: 40000,
    avgRating: 4.3,
    avgRatingString: '4.3',
    totalRatingsString: '1K+ ratings',
    sla: { minDeliveryTime: 25, maxDeliveryTime: 35, deliveryTime: 30, lastMileTravel: 2.4, slaString: '25-35 MINS', serviceability: 'SERVICEABLE' },
    availability: { opened: true },
    vegOnly: false,
    aggregatedDiscountInfo: { shortDescriptionList: [{ meta: '20% OFF UPTO ₹100' }] },
    ...overrides,
  }),
  /** A menu header as the edge sends it: the listing's restaurant plus the header's fields. */
  menuRestaurant: (overrides: Partial<MenuRestaurant> = {}): MenuRestaurant => ({
    ...fixtures.restaurant(),
    favourite: false,
    opened: true,
    unserviceable: false,
    tmpClosed: false,
    deliveryState: 'OPEN',
    deliveryStateText: null,
    deliveryStateMessage: null,
    feeDetails: null,
    offers: [],
    ...overrides,
  }),
  /** A listing page with nothing refined, as `restaurants/list/v5` sends it. */
  listing: (overrides: Partial<ListingResponse> = {}): ListingResponse => ({
    totalRestaurants: 0,
    pageIndex: 0,
    pageOffset: { offset: 0, nextOffset: null },
    serviceability: 'SERVICEABLE',
    cards: [],
    closedCards: [],
    unfilteredTotal: overrides.totalRestaurants ?? 0,
    sortBy: 'RELEVANCE',
    filters: { rating4Plus: false, pureVeg: false, fastDelivery: false, costRanges: [], cuisines: [], offers: false },
    sortConfigs: [],
    facets: { cuisines: [], costRanges: [] },
    topCarousel: [],
    bannerCarousel: [],
    filterCollections: [],
    nudgeCard: null,
    collection: null,
    ...overrides,
  }),
  /**
   * A menu item as `menu/pl` sends it. `struckOutPrice` and `customisable` follow the edge's rules
   * (the list price struck out when it differs from the final price and is above 0; customisable
   * with add-on or variant groups) unless the test sets them.
   */
  menuItem: (overrides: Partial<MenuItem> = {}): MenuItem => {
    const item: MenuItem = {
      id: '88001',
      name: 'Chicken Dum Biryani',
      description: 'Slow-cooked with basmati rice',
      category: 'Biryani',
      cloudinaryImageId: 'item-88001',
      price: 24900,
      defaultPrice: 24900,
      finalPrice: 24900,
      isVeg: 0,
      vegType: 'NONVEG',
      inStock: 1,
      ribbon: { text: 'Bestseller' },
      subCategory: null,
      struckOutPrice: null,
      nextAvailableAtMessage: null,
      outOfStockMessage: null,
      recommended: false,
      customisable: false,
      addons: [],
      variants: null,
      variantsV2: null,
      ...overrides,
    };
    const groups = (item.addons?.length ?? 0) + (item.variants?.variant_groups.length ?? 0) + (item.variantsV2?.variant_groups.length ?? 0);
    return {
      ...item,
      struckOutPrice: 'struckOutPrice' in overrides ? item.struckOutPrice : item.price !== item.finalPrice && item.price > 0 ? item.price : null,
      customisable: 'customisable' in overrides ? item.customisable : groups > 0,
    };
  },
  cart: (overrides: Partial<Cart> = {}): Cart => ({
    ...emptyCart(),
    restaurant_details: { id: '1042', name: 'Meghana Biryani House', area_name: 'Koramangala', cloudinary_image_id: 'restaurant-1042', opened: true },
    cartItems: [
      {
        cart_key: '88001|ch1|v1',
        menu_item_id: '88001',
        name: 'Chicken Dum Biryani',
        quantity: 2,
        isVeg: 0,
        in_stock: 1,
        base_price: 27900,
        final_price: 55800,
        price_changed: false,
        previous_price: null,
        addons: [{ choice_id: 'ch1', group_id: 'g1', name: 'Raita', price: 3000 }],
        variants: [{ variation_id: 'v1', group_id: 'vg1', group_name: 'Size', name: 'Half', price: 0 }],
      },
    ],
    cartItemsCount: 2,
    item_total: 55800,
    cart_subtotal_without_packing: 55800,
    cutlerySelection: { restaurantId: '1042', selected: false },
    ...overrides,
  }),
  emptyCart,
  savedCard: (overrides: Partial<SavedCard> = {}): SavedCard => ({
    card_reference: 'card_1',
    network: 'VISA',
    last4: '4242',
    expiry_month: 8,
    expiry_year: 2029,
    ...overrides,
  }),
  savedVpa: (overrides: Partial<SavedVpa> = {}): SavedVpa => ({ vpaAddress: 'asha@okbank', paas_id: 'vpa_1', ...overrides }),
  /** Paytm, not linked, as check-balance sends it. */
  wallet: (overrides: Partial<Wallet> = {}): Wallet => ({ walletCode: 'PAYTM', name: 'Paytm', linked: false, balance: 0, ...overrides }),
  /** LazyPay, not linked, as check-linked sends it. */
  payLater: (overrides: Partial<PayLater> = {}): PayLater => ({ walletCode: 'lazypay', name: 'LazyPay', linked: false, meta: { availableLimit: 0 }, ...overrides }),
  /**
   * An order being prepared, as order/trackV2 sends it: a rider on the way to Meghana Foods, 24
   * minutes away, the restaurant's phone in the call link.
   */
  tracking: (overrides: Partial<Tracking> = {}): Tracking => ({
    order_id: '123',
    order_status: 'PREPARING',
    status_code: 'PREPARING',
    terminal: false,
    restaurant_name: 'Meghana Foods',
    configuration: { polling_interval_seconds: 30 },
    map_details: {
      show_map: true,
      show_polyline: true,
      show_connector: true,
      rider: { marker_image_id: 'rider', marker_annotation: 'Ravi', location: { latitude: 12.93, longitude: 77.62 } },
      source: { latitude: 12.9352, longitude: 77.6245 },
      destination: { latitude: 12.9279, longitude: 77.6271 },
      waypoints: [
        { latitude: 12.93, longitude: 77.62 },
        { latitude: 12.9352, longitude: 77.6245 },
        { latitude: 12.9279, longitude: 77.6271 },
      ],
    },
    order_status_details: {
      status_tag_text: 'Preparing',
      status_message: 'Meghana Foods is preparing your order',
      eta_text: '24 mins',
      eta_subtext: 'Your food is being prepared',
      messages: [],
      delivery_instruction_details: { secondary_cta_link: '/call?phoneNumber=%2B918041234567' },
    },
    status_history: [
      { order_status: 'PLACED', changed_at: '2026-11-26T15:00:00Z' },
      { order_status: 'ACCEPTED', changed_at: '2026-11-26T15:01:00Z' },
      { order_status: 'PREPARING', changed_at: '2026-11-26T15:03:00Z' },
    ],
    ...overrides,
  }),
  /** A delivered order of the history: two Paneer Tikka and a Naan for ₹456.50. */
  orderSummary: (overrides: Partial<OrderSummary> = {}): OrderSummary => ({
    order_id: '123',
    order_status: 'DELIVERED',
    restaurant_id: '1042',
    restaurant_name: 'Meghana Foods',
    order_total: 45650,
    order_time: '2026-11-26T15:00:00Z',
    order_items: [
      { item_id: '88001', name: 'Paneer Tikka', quantity: 2, subtotal: 39800 },
      { item_id: '88002', name: 'Naan', quantity: 1, subtotal: 4900 },
    ],
    delivered_at: '2026-11-26T15:40:00Z',
    ...overrides,
  }),
  /**
   * A card-paid order being prepared, as order/details sends it: its bill (item total, charges, a
   * coupon, the total), free to cancel now.
   */
  orderDetails: (overrides: Partial<OrderDetails> = {}): OrderDetails => ({
    order_id: '123',
    order_status: 'PREPARING',
    order_type: 'REGULAR',
    order_time: '2026-11-26T15:00:00Z',
    order_note: '',
    order_total: 45650,
    restaurant_id: '1042',
    restaurant_name: 'Meghana Foods',
    order_items: [
      { item_id: '88001', name: 'Paneer Tikka', quantity: 2, subtotal: 39800, choices: 'Half, Extra mint chutney' },
      { item_id: '88002', name: 'Naan', quantity: 1, subtotal: 4900, choices: '' },
    ],
    bill: [{ key: 'ITEM_TOTAL', label: 'Item Total', amount: 44700 }],
    rendering_details: [
      { display_text: 'Item Total', type: 'ITEM_TOTAL', value: 44700, is_negative: false },
      { display_text: 'Delivery Charges', type: 'CHARGE', value: 4900, is_negative: false },
      { display_text: 'Taxes and Charges', type: 'CHARGE', value: 4000, is_negative: false },
      { display_text: 'Coupon TIFFIN20', type: 'DISCOUNT', value: 7950, is_negative: true },
      { display_text: 'Total Paid', type: 'TOTAL', value: 45650, is_negative: false },
    ],
    charges: { 'Delivery Charges': 4900, 'Packing Charges': 2000, GST: 1500, 'Convenience Fee': 500, 'Service Charges': 0, 'Cancellation Fee': 0 },
    status_history: [
      { order_status: 'PLACED', changed_at: '2026-11-26T15:00:00Z' },
      { order_status: 'PREPARING', changed_at: '2026-11-26T15:03:00Z' },
    ],
    payment_method: 'card',
    coupon_code: 'TIFFIN20',
    delivery_address: { address_id: '12', annotation: 'HOME', address: 'Flat 4B, 5th Block, Koramangala', area: 'Koramangala' },
    cancellable: true,
    cancellation_fee: 0,
    refund: null,
    ...overrides,
  }),
  /** The HDFC Bank card offer as `offers/payment` lists it, not used yet. */
  paymentOffer: (overrides: Partial<PaymentOffer> = {}): PaymentOffer => ({
    offer_id: 'HDFCBANK',
    kind: 'BANK',
    payment_method: 'card',
    wallet_code: null,
    title: '10% off with HDFC Bank cards',
    description: 'Up to ₹100 off on orders above ₹299 paid with an HDFC Bank credit or debit card',
    terms: ['Min cart amount ₹299', 'Valid till 31 Mar 2027', 'Once a day per customer', 'One payment offer per order'],
    min_cart_amount: 29900,
    max_discount: 10000,
    valid_till: '2027-03-31',
    limit: 'ONCE_A_DAY',
    offer_tag: { title: '10% OFF', subTitle: 'UPTO ₹100', backgroundColor: '#004C8F', textColor: '#FFFFFF' },
    used: false,
    ...overrides,
  }),
  /** The UPI coupon as `offers/payment` lists it: it does not end. */
  platformCoupon: (overrides: Partial<PlatformCoupon> = {}): PlatformCoupon => ({
    code: 'UPI50',
    title: '₹50 OFF WITH UPI',
    description: 'Use UPI50 | above ₹299, paying by UPI',
    min_cart_amount: 29900,
    valid_till: null,
    offer_tag: { title: '₹50 OFF', subTitle: 'WITH UPI', backgroundColor: '#5F259F', textColor: '#FFFFFF' },
    ...overrides,
  }),
  /** `offers/payment`: the HDFC Bank offer and MobiKwik's (used this month), then the UPI coupon. */
  paymentOffers: (overrides: Partial<PaymentOffersResponse> = {}): PaymentOffersResponse => ({
    payment_offers: [
      fixtures.paymentOffer(),
      fixtures.paymentOffer({
        offer_id: 'MOBIKWIK',
        kind: 'WALLET',
        payment_method: 'wallet',
        wallet_code: 'MOBIKWIK',
        title: '15% off with MobiKwik',
        description: 'Up to ₹75 off on orders above ₹249 paid with MobiKwik',
        terms: ['Min cart amount ₹249', 'Valid till 31 Mar 2027', 'Once a month per customer', 'One payment offer per order'],
        min_cart_amount: 24900,
        max_discount: 7500,
        limit: 'ONCE_A_MONTH',
        offer_tag: { title: '15% OFF', subTitle: 'UPTO ₹75', backgroundColor: '#0B72E7', textColor: '#FFFFFF' },
        used: true,
      }),
    ],
    coupons: [fixtures.platformCoupon()],
    ...overrides,
  }),
  /** A support message from Tiffin, as the conversations carry it (times in unix seconds). */
  conversationMessage: (overrides: Partial<ConversationMessage> = {}): ConversationMessage => ({
    id: 'm1',
    author: 'TIFFIN',
    authorName: 'Tiffin',
    text: 'We have passed this to our support team. You will get a reply here.',
    sentAt: 1_796_313_600,
    ...overrides,
  }),
  /** Order 123's food was bad: Asha said so and the conversation waits for an agent. */
  conversation: (overrides: Partial<Conversation> = {}): Conversation => ({
    id: 'c1',
    orderId: '123',
    issue: 'QUALITY',
    title: 'Food quality',
    status: 'WITH_AGENT',
    priority: false,
    outcome: null,
    messages: [
      fixtures.conversationMessage({ id: 'm0', author: 'CUSTOMER', authorName: 'Asha Rao', text: 'The paneer was cold.', sentAt: 1_796_313_540 }),
      fixtures.conversationMessage(),
    ],
    createdAt: 1_796_313_540,
    updatedAt: 1_796_313_600,
    ...overrides,
  }),
  /**
   * Help on delivered order 123, card-paid, ₹456.50 (two Paneer Tikka at ₹179.10 back each, a Naan
   * at ₹44.10): every issue open but cancelling, which a delivered order cannot be.
   */
  orderHelp: (overrides: Partial<OrderHelp> = {}): OrderHelp => ({
    orderId: '123',
    restaurantName: 'Meghana Foods',
    orderStatus: 'DELIVERED',
    issues: [
      { code: 'MISSING_ITEMS', title: 'Items are missing', available: true, reason: '' },
      { code: 'WRONG_ITEM', title: 'I got a wrong item', available: true, reason: '' },
      { code: 'QUALITY', title: 'Food quality', available: true, reason: '' },
      { code: 'LATE_DELIVERY', title: 'My order came late', available: true, reason: '' },
      { code: 'CANCEL', title: 'Cancel my order', available: false, reason: 'A delivered order cannot be cancelled.' },
      { code: 'OTHER', title: 'Something else', available: true, reason: '' },
    ],
    items: [
      { lineId: 1, name: 'Paneer Tikka', choices: 'Half', quantity: 2, refundableQuantity: 2, unitRefundPaise: 17910 },
      { lineId: 2, name: 'Naan', choices: '', quantity: 1, refundableQuantity: 1, unitRefundPaise: 4410 },
    ],
    refundTo: ['SOURCE', 'TIFFIN_MONEY'],
    lateCreditPaise: 0,
    minutesLate: 0,
    orderTotalPaise: 45650,
    paymentMethod: 'card',
    paymentStatus: 'CHARGED',
    refundedPaise: 0,
    windowEndsAt: 1_796_486_400,
    windowOpen: true,
    ...overrides,
  }),
  /** An open conversation as the desk's queue lists it. */
  deskQueueEntry: (overrides: Partial<DeskQueueEntry> = {}): DeskQueueEntry => ({
    id: 'c1',
    issue: 'QUALITY',
    title: 'Food quality',
    status: 'WITH_AGENT',
    priority: false,
    customerName: 'Asha Rao',
    orderId: '123',
    updatedAt: 1_796_313_600,
    lastMessage: 'The paneer was cold.',
    ...overrides,
  }),
  /** The desk's view of conversation c1: Asha (not a member) and her card-paid order of ₹456.50. */
  deskConversation: (overrides: Partial<DeskConversationResponse> = {}): DeskConversationResponse => ({
    conversation: fixtures.conversation(),
    customer: { name: 'Asha Rao', mobileLast4: '3210', member: false },
    order: {
      orderId: '123',
      restaurantName: 'Meghana Foods',
      status: 'DELIVERED',
      totalPaise: 45650,
      refundedPaise: 0,
      refundablePaise: 45650,
      paymentMethod: 'card',
      paymentStatus: 'CHARGED',
    },
    ...overrides,
  }),
  /** A Tiffin Money credit of ₹100 that left the balance at ₹250. */
  moneyTransaction: (overrides: Partial<MoneyTransaction> = {}): MoneyTransaction => ({
    transaction_id: 'txn_1',
    amount: 10000,
    direction: 'CREDIT',
    description: 'Refund for order 5001',
    balance_after: 25000,
    created_at: '2026-11-20T09:30:00Z',
    ...overrides,
  }),
};
