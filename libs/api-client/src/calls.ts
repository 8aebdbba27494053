/**
 * Typed calls of the foundation slice (docs/edge-api.md "Calls in the foundation slice"). Paths are
 * the spec's; the client adds `/api/`. Every call resolves with the envelope's `data` or rejects
 * with an `ApiError`.
 */
import type {
  AddWalletMoneyRequest,
  Address,
  CancelResult,
  AddressesResponse,
  AddressInput,
  AddressRecommendation,
  AuthenticatePaymentRequest,
  Cart,
  CartCalculatePaymentRequest,
  CartUpdateRequest,
  CitiesResponse,
  CityPageResponse,
  ConfirmOrderResponse,
  DeletedCardResponse,
  Delinked,
  DeletedVpaResponse,
  FavouritesResponse,
  LinkedWalletsResponse,
  LinkStarted,
  ListingFilters,
  ListingResponse,
  ListingSortKey,
  MenuResponse,
  MoneyResponse,
  OrderDetails,
  OrdersResponse,
  OtpSent,
  PayLater,
  PaymentOffersResponse,
  PricedCart,
  NetbankingBanksResponse,
  PaymentMethodsV2Response,
  PaymentStatusV2,
  PlaceOrderRequest,
  PlaceOrderResponse,
  PlaceSuggestion,
  RefundDestination,
  ReorderResult,
  SaveAddressResponse,
  SavedCard,
  SavedCardsResponse,
  SavedVpa,
  SavedVpasResponse,
  SmsPreferences,
  SuperAvailability,
  SuperNotifications,
  SuperNotified,
  SuperPlansWidget,
  SuperStatus,
  CartWithMembership,
  SupportResponse,
  Conversation,
  ConversationReply,
  ConversationsResponse,
  DeskConversationResponse,
  DeskQueueResponse,
  DeskRefundRequest,
  OrderHelp,
  OrderHelpRequest,
  SupportIssueResponse,
  Tracking,
  User,
  VerifyOtpRequest,
  VerifyOtpResponse,
  VpaCheck,
  TopUp,
  Wallet,
} from '@tiffin/contract';
import type { PreSearchResponse, SearchResultsResponse, SearchSuggestResponse, SearchTab } from '@tiffin/contract';
import type { ApiClient, RequestOptions } from './client';
import { peekInitialReply } from './initial-reply';

export type ListingPageType =
  | 'DESKTOP_WEB_LISTING'
  | 'DESKTOP_COLLECTION_LISTING'
  | 'COLLECTION_LISTING'
  | 'DESKTOP_SEE_ALL_LISTING';

interface ListingQuery {
  lat: number;
  lng: number;
  offset?: number;
  pageType?: ListingPageType;
  collection?: string;
}

function listingQuery(query: ListingQuery) {
  return {
    lat: query.lat,
    lng: query.lng,
    collection: query.collection,
    page_type: query.pageType ?? 'DESKTOP_WEB_LISTING',
    offset: query.offset ?? 0,
  };
}

export function createEdgeCalls(client: ApiClient) {
  return {
    cities: (options?: RequestOptions) => client.getData<CitiesResponse>('misc/cities', undefined, options),

    placeAutocomplete: (input: string, options?: RequestOptions) =>
      client.getData<PlaceSuggestion[]>('misc/place-autocomplete', { input, types: '' }, options),

    addressRecommend: (query: { placeId: string } | { lat: number; lng: number }, options?: RequestOptions) =>
      client.getData<AddressRecommendation[]>(
        'misc/address-recommend',
        'placeId' in query ? { place_id: query.placeId } : { latlng: `${query.lat},${query.lng}` },
        options,
      ),

    restaurants: (query: ListingQuery, options?: RequestOptions) => client.getData<ListingResponse>('restaurants/list/v5', listingQuery(query), options),

    /** The reply to `restaurants(query)` when the page carries it and it is unused (see initial-reply). */
    initialRestaurants: (query: ListingQuery) => peekInitialReply<ListingResponse>('restaurants/list/v5', listingQuery(query)),

    /** Paging and refining (sort, filters, collection): `POST restaurants/list/update`. */
    updateListing: (
      query: { lat: number; lng: number; offset?: number; sortBy?: ListingSortKey; filters?: ListingFilters; collection?: string; pageType?: ListingPageType },
      options?: RequestOptions,
    ) =>
      client.postData<ListingResponse>(
        'restaurants/list/update',
        {
          lat: query.lat,
          lng: query.lng,
          offset: query.offset ?? 0,
          sortBy: query.sortBy ?? 'RELEVANCE',
          filters: query.filters ?? {},
          collection: query.collection,
          page_type: query.pageType ?? 'DESKTOP_WEB_LISTING',
        },
        options,
      ),

    /** A city, area or cuisine page's restaurants: `GET restaurants/city`. */
    cityRestaurants: (query: { city: string; area?: string; cuisine?: string; best?: boolean; offset?: number }, options?: RequestOptions) =>
      client.getData<CityPageResponse>(
        'restaurants/city',
        { city: query.city, area: query.area, cuisine: query.cuisine, best: query.best ? '1' : undefined, offset: query.offset ?? 0 },
        options,
      ),

    /** Restaurant offers near a point, in the listing's shape: `GET offers/restaurant`. */
    restaurantOffers: (query: { lat: number; lng: number; offset?: number }, options?: RequestOptions) =>
      client.getData<ListingResponse>('offers/restaurant', { lat: query.lat, lng: query.lng, offset: query.offset ?? 0 }, options),

    /** The bank, card network, wallet and UPI offers and the coupons every restaurant takes: `GET offers/payment`. */
    paymentOffers: (query: { lat: number; lng: number }, options?: RequestOptions) =>
      client.getData<PaymentOffersResponse>('offers/payment', { lat: query.lat, lng: query.lng }, options),

    menu: (query: { restaurantId: string; lat?: number; lng?: number }, options?: RequestOptions) =>
      client.getData<MenuResponse>('menu/pl', { restaurantId: query.restaurantId, lat: query.lat, lng: query.lng }, options),

    cart: (options?: RequestOptions) => client.getData<Cart>('cart', undefined, { ...options, family: 'cart' }),

    updateCart: (update: CartUpdateRequest, options?: RequestOptions) =>
      client.postData<Cart>('cart', update, { ...options, family: 'cart' }),

    /**
     * Bills a cart (the stored one without `cartItems`) without saving anything. With a way to pay
     * (`paymentMethod`, and a new card's `cardBin` or a saved card's `savedCardReference`) the bill
     * carries that way's payment offer, as place-v2 will price it.
     */
    calculateCart: (request: CartCalculatePaymentRequest = {}, options?: RequestOptions) =>
      client.postData<PricedCart>('cart/calculate', { ...request }, { ...options, family: 'cart' }),

    /** A coupon that does not apply rejects with its reason (400 / 1); the cart is unchanged. */
    applyCoupon: (couponCode: string, paymentMethod?: string, options?: RequestOptions) =>
      client.postData<Cart>('cart/applyCoupon', paymentMethod ? { couponCode, paymentMethod } : { couponCode }, { ...options, family: 'cart' }),

    removeCoupon: (options?: RequestOptions) => client.postData<Cart>('cart/removeCoupon', {}, { ...options, family: 'cart' }),

    /** Drops a FREEBIE coupon's free item (and the coupon with it). */
    removeReward: (options?: RequestOptions) => client.postData<Cart>('cart/removeReward', {}, { ...options, family: 'cart' }),

    paymentMethods: (options?: RequestOptions) => client.getData<PaymentMethodsV2Response>('payment/get-methods', undefined, options),

    /** The banks netbanking can pay from. */
    netbankingBanks: (options?: RequestOptions) => client.getData<NetbankingBanksResponse>('payment/netbanking/banks', undefined, options),

    // ── Checkout (docs/checkout.md) ──

    /**
     * Places (or, with a new key, pays again for) the order. The client's own network retries
     * resend this same body, so they carry the same idempotency key.
     */
    placeOrder: (request: PlaceOrderRequest, options?: RequestOptions) =>
      client.postData<PlaceOrderResponse>('order/place-v2', { ...request }, options),

    /** The bank page's answer: the OTP, or `abandon` when the customer closes it. */
    authenticatePayment: (request: AuthenticatePaymentRequest, options?: RequestOptions) =>
      client.postData<PaymentStatusV2>('payment/authenticate', { ...request }, options),

    /** Where a payment stands; polling it is what settles a UPI collect and a netbanking payment. */
    paymentStatus: (paymentId: string, options?: RequestOptions) =>
      client.getData<PaymentStatusV2>('payment/upi/txn-status', { paas_id: paymentId }, options),

    verifyVpa: (vpaAddress: string, options?: RequestOptions) =>
      client.getData<VpaCheck>('payment/upi/verify-vpa', { vpaAddress }, options),

    /** Confirms a charged order; calling it again answers the same. */
    confirmOrder: (orderId: string, options?: RequestOptions) =>
      client.postData<ConfirmOrderResponse>('order/confirm-v2', { order_id: orderId }, options),

    orderDetails: (orderId: string, options?: RequestOptions) =>
      client.getData<OrderDetails>('order/details', { order_id: orderId }, options),

    orders: (options?: RequestOptions) => client.getData<OrdersResponse>('order/all', undefined, options),

    /** The next page of orders, older than `afterOrderId` (optional order_id for paging). */
    moreOrders: (afterOrderId: string, options?: RequestOptions) =>
      client.getData<OrdersResponse>('order/all', { order_id: afterOrderId }, options),

    // ── After the order (tracking, cancel, reorder) ──

    /** Where the order is now, with its map, ETA and status history. */
    trackOrder: (orderId: string, options?: RequestOptions) => client.getData<Tracking>('order/trackV2', { order_id: orderId }, options),

    /**
     * Opens the order's live tracking stream; every `tracking` event is a whole `Tracking` (without
     * the envelope), handed to `onTracking`. The browser's own reconnecting is not used: after any
     * error (a guest's 401, a dropped connection, the server ending the stream after the final
     * snapshot) the stream is closed and `onClose` is called once, and the caller's polling carries
     * on alone. Returns the function that closes the stream (which does not call `onClose`).
     * Where the browser has no EventSource nothing is opened.
     */
    trackOrderStream: (orderId: string, handlers: { onTracking: (tracking: Tracking) => void; onClose?: () => void }): (() => void) => {
      const EventSourceImpl = globalThis.EventSource as typeof EventSource | undefined;
      if (!EventSourceImpl) return () => {};
      const source = new EventSourceImpl(client.url('order/track-stream', { order_id: orderId }));
      let open = true;
      const close = () => {
        open = false;
        source.close();
      };
      source.addEventListener('tracking', (event) => {
        if (!open) return;
        try {
          handlers.onTracking(JSON.parse((event as MessageEvent<string>).data) as Tracking);
        } catch {
          // A snapshot that is not JSON is skipped; the next one (or the next poll) replaces it.
        }
      });
      source.addEventListener('error', () => {
        if (!open) return;
        close();
        handlers.onClose?.();
      });
      return close;
    },

    /**
     * Cancels the order; a refund goes to `refundTo`. A refusal (picked up already, say) rejects
     * with the edge's message for the customer.
     */
    cancelOrder: (orderId: string, refundTo: RefundDestination, options?: RequestOptions) =>
      client.postData<CancelResult>(`cancel-only/order/${encodeURIComponent(orderId)}`, { refund_to: refundTo }, options),

    /** Puts the order's items in the cart again; the reply says what could not go in as before. */
    reorder: (orderId: string, options?: RequestOptions) => client.postData<ReorderResult>('order/reorder', { order_id: orderId }, options),

    // ── Tiffin One (docs/edge-api.md "Membership") ──

    /** The plans on sale, as the `plan-listing` widget. */
    superPlans: (options?: RequestOptions) => client.getData<SuperPlansWidget>('super/plans', undefined, options),

    /** The caller's membership: NOT_SUPER for a guest. */
    superStatus: (options?: RequestOptions) => client.getData<SuperStatus>('profile/super', undefined, options),

    /** Stops the membership renewing; it lasts to its end date, and its fee is not refunded. */
    cancelSuper: (options?: RequestOptions) => client.postData<SuperStatus>('super/cancel', {}, options),

    /** Whether the caller can buy the plan where they are (plans are sold city by city), and why not. */
    superAvailability: (planId: string, where: { lat: number; lng: number } | null, options?: RequestOptions) =>
      client.getData<SuperAvailability>(`super/available/${encodeURIComponent(planId)}`, where ? { lat: where.lat, lng: where.lng } : undefined, options),

    /** "Notify me" when the plan is sold in the city at this point; kept once per plan and city. */
    notifySuper: (planId: string, where: { lat: number; lng: number }, options?: RequestOptions) =>
      client.postData<SuperNotified>(`super/notify/${encodeURIComponent(planId)}`, { lat: where.lat, lng: where.lng }, options),

    superNotifications: (options?: RequestOptions) => client.getData<SuperNotifications>('super/notify', undefined, options),

    /**
     * Puts the plan in the cart (quantity is always 1). A plan that cannot be bought now rejects
     * with cart status 21 ('SUPER invalid now').
     */
    addSubscriptionToCart: (planId: string, options?: RequestOptions) =>
      client.postData<CartWithMembership>('cart/addSubscriptionToCart', { subscriptionItems: [{ plan_id: planId, quantity: 1 }] }, { ...options, family: 'cart' }),

    // ── Support (docs/support.md "Edge routes") ──

    support: (options?: RequestOptions) => client.getData<SupportResponse>('support', undefined, options),

    /** One issue and its FAQ articles; `faq` and `super-faq` are the general and Tiffin One FAQs. */
    supportIssue: (issueId: string, options?: RequestOptions) =>
      client.getData<SupportIssueResponse>(`support/issues/${encodeURIComponent(issueId)}`, undefined, options),

    /** What help the order can have now: its issues (with why not), its lines and where refunds may go. */
    orderHelp: (orderId: string, options?: RequestOptions) =>
      client.getData<OrderHelp>(`support/order-help/${encodeURIComponent(orderId)}`, undefined, options),

    /**
     * Asks for help on an order; the rules act on it and the conversation says what came of it.
     * The client's own network retries resend this body, so the same idempotency key.
     */
    requestOrderHelp: (request: OrderHelpRequest, options?: RequestOptions) =>
      client.postData<ConversationReply>('support/order-help', { ...request }, options),

    /** The customer's conversations, newest first. */
    supportConversations: (options?: RequestOptions) => client.getData<ConversationsResponse>('support/conversations', undefined, options),

    supportConversation: (conversationId: string, options?: RequestOptions) =>
      client.getData<ConversationReply>(`support/conversations/${encodeURIComponent(conversationId)}`, undefined, options),

    sendSupportMessage: (conversationId: string, text: string, options?: RequestOptions) =>
      client.postData<ConversationReply>(`support/conversations/${encodeURIComponent(conversationId)}/messages`, { text }, options),

    /**
     * Opens the conversation's stream: each `conversation` event is the whole conversation (no
     * envelope), at once and on every change, handed to `onConversation`. As for tracking, the
     * browser's own reconnecting is not used: on the first error the stream is closed and `onClose`
     * called once, and the caller polls instead. Where the browser has no EventSource, `onClose` is
     * called at once. Returns the function that closes the stream (which does not call `onClose`).
     */
    supportConversationStream: (
      conversationId: string,
      handlers: { onConversation: (conversation: Conversation) => void; onClose?: () => void },
    ): (() => void) => {
      const EventSourceImpl = globalThis.EventSource as typeof EventSource | undefined;
      if (!EventSourceImpl) {
        handlers.onClose?.();
        return () => {};
      }
      const source = new EventSourceImpl(client.url(`support/conversations/${encodeURIComponent(conversationId)}/events`));
      let open = true;
      const close = () => {
        open = false;
        source.close();
      };
      source.addEventListener('conversation', (event) => {
        if (!open) return;
        try {
          handlers.onConversation(JSON.parse((event as MessageEvent<string>).data) as Conversation);
        } catch {
          // A conversation that is not JSON is skipped; the next one replaces it.
        }
      });
      source.addEventListener('error', () => {
        if (!open) return;
        close();
        handlers.onClose?.();
      });
      return close;
    },

    // ── The desk (agents; a customer's session is answered 403) ──

    /** The open conversations, in the order the edge sends them (Tiffin One first, then oldest). */
    deskQueue: (options?: RequestOptions) => client.getData<DeskQueueResponse>('desk/queue', undefined, options),

    deskConversation: (conversationId: string, options?: RequestOptions) =>
      client.getData<DeskConversationResponse>(`desk/conversations/${encodeURIComponent(conversationId)}`, undefined, options),

    deskReply: (conversationId: string, text: string, options?: RequestOptions) =>
      client.postData<ConversationReply>(`desk/conversations/${encodeURIComponent(conversationId)}/reply`, { text }, options),

    /** A refund over the agent's limit or what is left of the order rejects with the edge's words. */
    deskRefund: (conversationId: string, request: DeskRefundRequest, options?: RequestOptions) =>
      client.postData<ConversationReply>(`desk/conversations/${encodeURIComponent(conversationId)}/refund`, { ...request }, options),

    deskClose: (conversationId: string, options?: RequestOptions) =>
      client.postData<ConversationReply>(`desk/conversations/${encodeURIComponent(conversationId)}/close`, {}, options),

    // ── Accounts (docs/edge-api.md "Accounts") ──

    /** Sends a sign-in code. The reply is alike whether or not the number has an account. */
    requestOtp: (mobile: string, options?: RequestOptions) => client.postData<OtpSent>('auth/otp', { mobile }, options),

    /**
     * Signs in (or up, with `name`/`email`); the reply rotates the session and its CSRF token. A
     * right code for a number without an account, sent without a name, answers `nameRequired`
     * instead (no user, nothing rotated): send the same code again with the name.
     */
    verifyOtp: (request: VerifyOtpRequest, options?: RequestOptions) =>
      client.postData<VerifyOtpResponse>('auth/verify-otp', { ...request }, options),

    logout: (options?: RequestOptions) => client.postData<null>('auth/logout', {}, options),

    profile: (options?: RequestOptions) => client.getData<User>('profile/info', undefined, options),

    /** Sends a code to the new number. */
    updateMobile: (mobile: string, options?: RequestOptions) => client.postData<OtpSent>('profile/update-mobile', { mobile }, options),

    /** Confirms the new number with its code; the edge answers `Update Successful`. */
    verifyMobile: (request: { mobile: string; otp: string }, options?: RequestOptions) =>
      client.postData<User>('profile/verify-otp', { ...request }, options),

    /** Starts an email change: the user comes back with `pendingEmail` set. */
    updateEmail: (email: string, options?: RequestOptions) => client.postData<User>('profile/update-email', { email }, options),

    verifyEmail: (token: string, options?: RequestOptions) => client.postData<{ email: string }>('profile/verify-email', { token }, options),

    /** Order SMS cannot be turned off, so only the optional kinds are sent. */
    updateSmsPreferences: (sms: Partial<Omit<SmsPreferences, 'orders'>>, options?: RequestOptions) =>
      client.postData<{ preferences: { sms: SmsPreferences } }>('profile/update-notification-preference', { sms }, options),

    deleteAccount: (options?: RequestOptions) => client.postData<null>('profile/delete-account', {}, options),

    addresses: (options?: RequestOptions) => client.postData<AddressesResponse>('address/all', {}, options),

    /** Adds an address, or edits it when `id` is set. */
    saveAddress: (address: AddressInput, options?: RequestOptions) => client.postData<SaveAddressResponse>('address', { ...address }, options),

    deleteAddress: (id: Address['id'], options?: RequestOptions) => client.postData<AddressesResponse>('address/delete', { id }, options),

    addressServiceable: (query: { lat: number; lng: number } | { id: string }, options?: RequestOptions) =>
      client.getData<{ serviceable: boolean }>('address/serviceable', { ...query }, options),

    setFavourite: (restaurantId: string, favourite: boolean, options?: RequestOptions) =>
      client.postData<{ restaurantId: string; favourite: boolean }>('misc/favorite', { restaurantId, favourite }, options),

    favourites: (query: { lat?: number; lng?: number } = {}, options?: RequestOptions) =>
      client.getData<FavouritesResponse>('profile/favourites', { lat: query.lat, lng: query.lng }, options),

    // ── Payments (docs/edge-api.md "Payments") ──

    savedCards: (options?: RequestOptions) => client.getData<SavedCardsResponse>('profile/saved-cards', undefined, options),

    deleteCard: (cardReference: SavedCard['card_reference'], options?: RequestOptions) =>
      client.postData<DeletedCardResponse>('profile/delete-card', { card_reference: cardReference }, options),

    /** Tiffin Money; `afterTransactionId` (the last id already shown) asks for the next, older page. */
    money: (afterTransactionId?: string, options?: RequestOptions) =>
      client.getData<MoneyResponse>('profile/money', { transaction_id: afterTransactionId }, options),

    savedVpas: (options?: RequestOptions) => client.getData<SavedVpasResponse>('profile/saved-vpas', undefined, options),

    /** Names the address by its id, which the edge prefers, and by the address the spec sends. */
    deleteVpa: (vpa: SavedVpa, options?: RequestOptions) =>
      client.postData<DeletedVpaResponse>('profile/delete-vpa', { vpa: vpa.vpaAddress, paas_id: vpa.paas_id }, options),

    /** One wallet's state; a provider that does not answer reads not linked. */
    checkWalletBalance: (walletCode: string, options?: RequestOptions) =>
      client.getData<Wallet>('payment/wallet/check-balance', { walletCode }, options),

    /** The linked wallets, each with its balance, in checkout's order. */
    linkedWallets: (options?: RequestOptions) => client.getData<LinkedWalletsResponse>('profile/linked-wallets', undefined, options),

    /** Sends the provider's OTP (`otpSent`), or answers `linked` when no OTP is needed. */
    linkWallet: (walletCode: string, options?: RequestOptions) => client.postData<LinkStarted>('payment/wallet/link', { walletCode }, options),

    validateWalletOtp: (request: { walletCode: string; otp: string }, options?: RequestOptions) =>
      client.postData<Wallet>('payment/wallet/validate-otp', { ...request }, options),

    /**
     * Tops up a linked wallet, paid by a UPI collect to `vpa`: `added` once that payment is charged.
     * `idempotency_key` is one per top-up attempt: the client's own network retries resend this body,
     * so the same key; the caller resends it after no answer at all, and to follow a pending payment.
     */
    addWalletMoney: (request: AddWalletMoneyRequest, options?: RequestOptions) =>
      client.postData<TopUp>('payment/wallet/add-money', { ...request }, options),

    delinkWallet: (walletCode: string, options?: RequestOptions) => client.postData<Delinked>('payment/wallet/delink', { walletCode }, options),

    /** Pay-later's state; a provider that does not answer reads not linked. */
    payLater: (options?: RequestOptions) => client.getData<PayLater>('payment/paylater/check-linked', undefined, options),

    /** `walletCode` may be left out: the edge has one pay-later provider and picks it. */
    linkPayLater: (walletCode?: string, options?: RequestOptions) =>
      client.postData<LinkStarted>('payment/paylater/link', walletCode ? { walletCode } : {}, options),

    /** A resent OTP replaces the one before. */
    resendPayLaterOtp: (walletCode?: string, options?: RequestOptions) =>
      client.postData<LinkStarted>('payment/paylater/resend-otp', walletCode ? { walletCode } : {}, options),

    validatePayLaterOtp: (request: { walletCode?: string; otp: string }, options?: RequestOptions) =>
      client.postData<PayLater>('payment/paylater/validate-otp', request.walletCode ? { ...request } : { otp: request.otp }, options),

    delinkPayLater: (options?: RequestOptions) => client.postData<Delinked>('payment/paylater/delink', {}, options),

    // ── Search (docs/edge-api.md "Search") ──

    searchSuggest: (query: { str: string; lat: number; lng: number }, options?: RequestOptions) =>
      client.getData<SearchSuggestResponse>('restaurants/search/suggest', { ...query }, options),

    /** One tab's results (the first when `selectedTab` is absent) and every tab's count. */
    search: (query: { str: string; lat: number; lng: number; selectedTab?: SearchTab }, options?: RequestOptions) =>
      client.getData<SearchResultsResponse>('restaurants/search/v3', { ...query }, options),

    preSearch: (query: { lat: number; lng: number }, options?: RequestOptions) =>
      client.getData<PreSearchResponse>('landing/PRE_SEARCH', { ...query }, options),
  };
}
