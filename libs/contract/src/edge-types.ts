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

export interface AddressComponent {
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

export interface Sla {
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
}

export type VegType = 'VEG' | 'NONVEG' | 'EGG';

export interface AddonChoice {
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

export interface Variation {
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

export interface PricingModel {
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

/** POST /api/cart body without `_csrf` (the api-client adds it). */
export interface CartUpdateRequest {
  restaurantId: string;
  cartItems: CartLineSelection[];
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
  addons: Array<{ choice_id: string; group_id: string; name: string; price: number }>;
  variants: Array<{ variation_id: string; group_id: string; group_name: string; name: string; price: number }>;
}

export interface Cart {
  cartId: string;
  restaurant_details: { id: string; name: string; area_name: string; cloudinary_image_id: string } | null;
  cartItems: CartItem[];
  cartItemsCount: number;
  item_total: number;
}

export interface PaymentMethod {
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

export interface SuperPlan {
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

export interface SupportIssueType {
  id: string;
  title: string;
  description: string;
}

export interface SupportResponse {
  issueTypes: SupportIssueType[];
}

// ── Accounts (issue 6; docs/edge-api.md "Accounts") ──────────────────────────────────────────

export interface SmsPreferences {
  /** Order SMS cannot be turned off (spec 001 §4): always true. */
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
export type AddressAnnotation = 'HOME' | 'WORK' | 'OTHER';

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
