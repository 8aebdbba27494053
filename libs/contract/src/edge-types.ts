/**
 * TypeScript shapes of the edge's replies (docs/edge-api.md). All money is integer paise; ids are
 * strings. These are the `data` of the envelope; the envelope itself lives in @tiffin/api-client.
 */

export interface PlaceSuggestion {
  place_id: string;
  description: string;
  structured_formatting: { main_text: string; secondary_text: string };
  terms: Array<{ offset: number; value: string }>;
  types: string[];
}

interface AddressComponent {
  long_name: string;
  short_name: string;
  types: string[];
}

export interface AddressRecommendation {
  place_id: string;
  formatted_address: string;
  address_components: AddressComponent[];
  geometry: { location: { lat: number; lng: number } };
  area: string;
  city: string;
  main_text: string;
}

export interface City {
  slug: string;
  name: string;
  enabled: boolean;
}

export interface CitiesResponse {
  cities: City[];
}

export type Serviceability = 'SERVICEABLE' | 'NON_SERVICEABLE' | 'SERVICEABLE_WITH_BANNER';

interface Sla {
  minDeliveryTime: number;
  maxDeliveryTime: number;
  deliveryTime: number;
  lastMileTravel: number;
  slaString: string;
  serviceability: Serviceability;
}

export interface Restaurant {
  id: string;
  name: string;
  slug: string;
  city: string;
  areaName: string;
  locality: string;
  cloudinaryImageId: string;
  cuisines: string[];
  /** Paise. */
  costForTwo: number;
  avgRating: number | null;
  avgRatingString: string;
  totalRatingsString: string;
  sla: Sla;
  availability: { opened: boolean };
  vegOnly: boolean;
  aggregatedDiscountInfo?: { shortDescriptionList: Array<{ meta: string }> } | null;
}

export interface RestaurantCard {
  type: 'RESTAURANT';
  data: Restaurant;
}

export interface ListingResponse {
  totalRestaurants: number;
  pageIndex: number;
  pageOffset: { offset: number; nextOffset: number | null };
  serviceability: Serviceability;
  cards: RestaurantCard[];
  closedCards: RestaurantCard[];
  // Present on every refined listing (docs/edge-api.md "Listing, collections, offers").
  unfilteredTotal?: number;
  sortBy?: ListingSortKey;
  filters?: ListingFilters;
  sortConfigs?: Array<{ key: ListingSortKey; title: string }>;
  facets?: { cuisines: Array<{ label: string; count: number }>; costRanges: Array<{ key: CostRangeKey; title: string }> };
  topCarousel?: CollectionCardJson[];
  bannerCarousel?: Array<{ title: string; text: string; imageId: string; link: string }>;
  filterCollections?: CollectionCardJson[];
  nudgeCard?: { title: string; text: string; link: string } | null;
  collection?: CollectionCardJson | null;
}

export type ListingSortKey = 'RELEVANCE' | 'DELIVERY_TIME' | 'RATING' | 'COST_LOW_TO_HIGH' | 'COST_HIGH_TO_LOW';
export type CostRangeKey = 'UNDER_300' | '300_TO_600' | 'OVER_600';

/** The listing's filters (`restaurants/list/update`); every one set must match. */
export interface ListingFilters {
  rating4Plus?: boolean;
  pureVeg?: boolean;
  fastDelivery?: boolean;
  costRanges?: CostRangeKey[];
  cuisines?: string[];
  offers?: boolean;
}

/** `restaurants/city`: a city, area or cuisine page, no delivery point needed. */
export interface CityPageResponse {
  city: { slug: string; name: string; enabled: boolean };
  area: { slug: string; name: string } | null;
  cuisine: string | null;
  title: string;
  description: string;
  heading: string;
  totalRestaurants: number;
  pageOffset: { offset: number; nextOffset: number | null };
  cards: RestaurantCard[];
  areas: Array<{ slug: string; name: string; restaurants: number; link: string }>;
  cuisines: Array<{ label: string; count: number; link: string }>;
}

/** A collection's card (carousels, filter collections, a collection page's heading). */
export interface CollectionCardJson {
  id: string;
  title: string;
  description: string;
  imageId: string;
  link: string;
  restaurants: number;
}

export type VegType = 'VEG' | 'NONVEG' | 'EGG';

interface AddonChoice {
  id: string;
  name: string;
  price: number;
  inStock: number;
  isVeg: number;
}

export interface AddonGroup {
  group_id: string;
  group_name: string;
  minAddons: number;
  maxAddons: number;
  maxFreeAddons: number;
  choices: AddonChoice[];
}

interface Variation {
  id: string;
  name: string;
  price: number;
  default: number;
  inStock: number;
  isVeg: number;
}

export interface VariantGroup {
  group_id: string;
  name: string;
  variations: Variation[];
}

interface PricingModel {
  variations: Array<{ group_id: string; variation_id: string }>;
  price: number;
}

export interface MenuItem {
  id: string;
  name: string;
  description: string;
  category: string;
  cloudinaryImageId: string;
  price: number;
  defaultPrice: number;
  finalPrice: number;
  isVeg: number;
  vegType: VegType;
  inStock: number;
  ribbon: { text: string } | null;
  spiceLevel?: 'MEDIUMSPICY' | 'VERYSPICY' | string;
  addons: AddonGroup[];
  variantsV2?: { variant_groups: VariantGroup[]; pricing_models: PricingModel[] } | null;
}

export interface MenuWidget {
  type: 'RECOMMENDED' | 'CATEGORY';
  id: string;
  name: string;
  entities: Array<{ id: string }>;
  widgets: MenuWidget[];
}

export interface MenuResponse {
  restaurant: Restaurant;
  menu: { widgets: MenuWidget[]; items: Record<string, MenuItem> };
}

export interface CartLineSelection {
  menu_item_id: string;
  quantity: number;
  addons: Array<{ group_id: string; choice_id: string }>;
  variants: Array<{ group_id: string; variation_id: string }>;
}

/** `selected` means "don't send cutlery"; it applies to this restaurant only. */
interface CutlerySelection {
  restaurantId: string;
  selected: boolean;
}

/** The lines of a cart as POST /api/cart takes them: what, how many, which choices; never a price. */
export interface CartLinesUpdate {
  restaurantId: string;
  cartItems: CartLineSelection[];
}

/**
 * POST /api/cart body without `_csrf` (the api-client adds it). Without `cartItems` the lines are
 * kept and only the other fields given change (docs/edge-api.md "Cart").
 */
export interface CartUpdateRequest extends Partial<CartLinesUpdate> {
  address_id?: string;
  /** `""` removes the coupon. */
  couponCode?: string;
  /** The note to the restaurant (at most 200 characters). */
  order_comments?: string;
  cutlerySelection?: CutlerySelection;
}

/** POST /api/cart/calculate: an update body billed without saving, with an optional payment code. */
export interface CartCalculateRequest extends CartUpdateRequest {
  paymentMethod?: string;
}

export interface CartItem {
  cart_key: string;
  menu_item_id: string;
  name: string;
  quantity: number;
  isVeg: number;
  in_stock: number;
  base_price: number;
  final_price: number;
  /** True when `base_price` differs from the unit price the customer was last shown (`previous_price`). */
  price_changed?: boolean;
  previous_price?: number | null;
  addons: Array<{ choice_id: string; group_id: string; name: string; price: number }>;
  variants: Array<{ variation_id: string; group_id: string; group_name: string; name: string; price: number }>;
}

/** One line of the bill: signed paise (discounts negative), in display order. */
interface CartBillLine {
  key: 'ITEM_TOTAL' | 'DELIVERY_FEE' | 'PACKAGING' | 'PLATFORM_FEE' | 'GST' | 'COUPON_DISCOUNT' | string;
  label: string;
  amount: number;
  tooltip: string | null;
}

export interface CartBill {
  lines: CartBillLine[];
  /** Exactly the sum of the lines, never below 0. */
  to_pay: number;
}

type CouponType = 'PERCENTAGE' | 'FLAT' | 'FREE_DELIVERY' | 'FREEBIE' | string;

interface CartCouponDetails {
  code: string;
  title: string;
  description: string;
  type: CouponType;
  discount: number;
}

/** A coupon offered on this cart; `message` says what it saves, or why it does not apply. */
interface CartCoupon extends CartCouponDetails {
  applicable: boolean;
  message: string;
}

/** The free item of a FREEBIE coupon ("1 Free Delight for you"). */
interface CartFreebieItem {
  id: string;
  name: string;
  quantity: number;
  final_price: number;
  rewardType: string;
  message: string;
}

/** A saved address as the cart lists it: `delivery_valid` 1 when this restaurant delivers there. */
interface CartAddress {
  id: string;
  annotation: string;
  address: string;
  area: string;
  delivery_valid: number;
}

export interface Cart {
  cartId: string;
  restaurant_details: { id: string; name: string; area_name: string; cloudinary_image_id: string; opened?: boolean } | null;
  cartItems: CartItem[];
  cartItemsCount: number;
  item_total: number;
  // Cart meta (docs/edge-api.md "The Cart"). Optional: an optimistic or older cart may lack them.
  cart_subtotal_without_packing?: number;
  total_without_coupon_discount?: number;
  /** `null` for an empty cart. */
  bill?: CartBill | null;
  coupon_code?: string | null;
  coupon_details?: CartCouponDetails | null;
  discount_message?: string | null;
  discount_message_type?: 'SUCCESS' | 'ERROR' | string | null;
  coupons?: CartCoupon[];
  best_coupon?: string | null;
  cartFreebieItems?: CartFreebieItem[];
  /** `restaurantId` is null when no choice was made for this cart. */
  cutlerySelection?: { restaurantId: string | null; selected: boolean } | null;
  cutlery_instruction?: string | null;
  order_comments?: string;
  address_id?: string | null;
  addresses?: CartAddress[];
  serviceable?: boolean;
  distance_km?: number | null;
  sla_time?: number | null;
  estimated_sla_min?: number | null;
  estimated_sla_max?: number | null;
  min_cart_value?: number;
  min_cart_message?: string | null;
}

interface PaymentMethod {
  payment_code: string;
  name: string;
  enabled: boolean;
}

export interface PaymentMethodsResponse {
  payment_groups: Array<{ group_name: string; payment_methods: PaymentMethod[] }>;
}

export interface OrdersResponse {
  orders: Array<{ order_id: string; order_status?: string; restaurant_name?: string; order_total?: number; order_time?: string }>;
  total_orders: number;
}

interface SuperPlan {
  planId: string;
  planName: string;
  title: string;
  basePrice: number;
  finalPrice: number;
  recommended: boolean;
  recommendedText: string;
  planElement: string[];
}

export interface SuperPlansResponse {
  plans: SuperPlan[];
}

interface SupportIssueType {
  id: string;
  title: string;
  description: string;
}

export interface SupportResponse {
  issueTypes: SupportIssueType[];
}

// ── Accounts (docs/edge-api.md "Accounts") ──────────────────────────────────────────

export interface SmsPreferences {
  /** Order SMS cannot be turned off: always true. */
  orders: boolean;
  recommendations: boolean;
  reminders: boolean;
}

/** The signed-in customer (GET profile/info, auth/verify-otp, the initial state's `user`). */
export interface User {
  customer_id: string;
  mobile: string;
  name: string;
  email: string;
  /** An email change waiting for its verification link; '' when none. */
  pendingEmail: string;
  emailVerified: boolean;
  optional_map: Record<string, string>;
  preferences: { sms: SmsPreferences };
}

/** Reply of POST auth/otp and POST profile/update-mobile. */
export interface OtpSent {
  mobile: string;
  /** false: no account has this number yet, so the sign-up form asks for a name. */
  registered: boolean;
  resendAfterSeconds: number;
  expiresInSeconds: number;
}

/** POST auth/verify-otp body (without `_csrf`); `name`/`email` only on sign-up. */
export interface VerifyOtpRequest {
  mobile: string;
  otp: string;
  name?: string;
  email?: string;
}

export interface VerifyOtpResponse {
  user: User;
  signedUp: boolean;
}

/** `HOME`, `WORK` or `OTHER`; the edge accepts any case. */
type AddressAnnotation = 'HOME' | 'WORK' | 'OTHER';

export interface Address {
  id: string;
  annotation: AddressAnnotation | string;
  /** The full address, with the flat number at its start. */
  address: string;
  area: string;
  flat_no: string;
  landmark: string;
  lat: number;
  lng: number;
  mobile: string;
  instructions: string;
  city: string;
  /** 1 when some restaurant delivers to the address, else 0. */
  delivery_valid: number;
}

/** POST address body: an Address without `id` adds, with `id` edits. */
export type AddressInput = Omit<Address, 'id' | 'delivery_valid' | 'mobile'> & { id?: string; mobile?: string };

export interface AddressesResponse {
  /** Newest first. */
  addresses: Address[];
}

export interface SaveAddressResponse {
  address: Address;
  addresses: Address[];
}

export interface FavouritesResponse {
  restaurants: Restaurant[];
}

// ── Search (docs/edge-api.md "Search") ──

type SearchSuggestionType = 'CUISINE' | 'RESTAURANT' | 'DISH';

/** One line of GET restaurants/search/suggest. */
export interface SearchSuggestion {
  type: SearchSuggestionType;
  text: string;
  subtitle: string;
  cloudinaryImageId: string;
  /** Only for a RESTAURANT: where it leads. */
  restaurantId?: string;
  slug?: string;
  city?: string;
}

export interface SearchSuggestResponse {
  suggestions: SearchSuggestion[];
}

export type SearchTab = 'RESTAURANT' | 'DISH';

/** A dish found by search (the menu item's id, price in paise). */
export interface SearchDish {
  id: string;
  restaurantId: string;
  name: string;
  category: string;
  price: number;
  /** Struck-out price in paise, or null. */
  defaultPrice: number | null;
  vegType: VegType;
  isVeg: number;
  inStock: number;
  /** Variants or add-ons: chosen on the menu page. */
  customisable: boolean;
  cloudinaryImageId: string;
}

type SearchResultCard =
  | { type: 'RESTAURANT'; tab: 'RESTAURANT'; data: Restaurant }
  | { type: 'DISH'; tab: 'DISH'; data: { dish: SearchDish; restaurant: Restaurant } };

/** GET restaurants/search/v3: the selected tab's cards and every tab's count. */
export interface SearchResultsResponse {
  query: string;
  selectedTab: SearchTab;
  navigation: Array<{ id: SearchTab; title: string; count: number }>;
  cards: SearchResultCard[];
}

interface PopularCuisine {
  name: string;
  restaurantCount: number;
  cloudinaryImageId: string;
}

/** GET landing/PRE_SEARCH. */
export interface PreSearchResponse {
  pageOffset: { offset: number; nextOffset: number | null };
  firstOffsetRequest: boolean;
  ribbons: unknown[];
  cards: Array<{ card: { type: 'POPULAR_CUISINES'; title: string; cuisines: PopularCuisine[] } }>;
}
