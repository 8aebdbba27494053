/**
 * The edge's reply and request shapes under the names the web apps use: each is an alias of a type
 * generated from the edge's OpenAPI document (`edge-api.gen.ts`, from `docs/openapi.json`, from the
 * edge's own Rust types; `make contract` regenerates both). Nothing here is written by hand but the
 * names: change a shape in the edge. All money is integer paise; ids are strings. These are the
 * `data` of the envelope; the envelope itself lives in @tiffin/api-client.
 */
import type { components } from './edge-api.gen';

type Schemas = components['schemas'];

export type { components as EdgeSchemas, paths as EdgePaths } from './edge-api.gen';

// ── Places and cities ──
export type PlaceSuggestion = Schemas['PlaceSuggestion'];
export type AddressRecommendation = Schemas['AddressRecommendation'];
export type City = Schemas['City'];
export type CitiesResponse = Schemas['Cities'];

// ── The listing, collections, city pages ──
export type Serviceability = Schemas['Serviceability'];
export type Restaurant = Schemas['Restaurant'];
export type RestaurantCard = Schemas['RestaurantCard'];
export type ListingResponse = Schemas['Listing'];
export type ListingFilters = Schemas['ListingFilters'];
export type ListingSortKey = Schemas['ListingSortKey'];
export type CostRangeKey = Schemas['CostRangeKey'];
export type ListingUpdateRequest = Schemas['ListingUpdate'];
export type CollectionCardJson = Schemas['Collection'];
export type CityPageResponse = Schemas['CityPage'];

// ── Menu ──
export type VegType = Schemas['VegType'];
export type AddonGroup = Schemas['AddonGroup'];
export type VariantGroup = Schemas['VariantGroup'];
export type MenuItem = Schemas['MenuItem'];
export type MenuWidget = Schemas['MenuWidget'];
export type MenuRestaurant = Schemas['MenuRestaurant'];
export type MenuOffer = Schemas['MenuOffer'];
export type MenuResponse = Schemas['MenuPage'];
export type MenuSearchResponse = Schemas['MenuSearch'];

// ── Cart ──
export type CartLineSelection = Schemas['CartLineInput'];
/** POST /api/cart (and, with `paymentMethod`, cart/calculate) body without `_csrf` (the api-client adds it). */
export type CartUpdateRequest = Schemas['CartUpdateInput'];
export type CartCalculateRequest = Schemas['CartUpdateInput'];
/** The lines of a cart as the web sends them: what, how many, which choices; never a price. */
export type CartLinesUpdate = { restaurantId: string; cartItems: CartLineSelection[] };
export type CartItem = Schemas['CartItem'];
export type CartBill = Schemas['CartBill'];
export type Cart = Schemas['Cart'];
export type CartAddress = Schemas['CartAddress'];

// ── Payments, orders, membership, support ──
export type PaymentMethodsResponse = Schemas['PaymentMethods'];
export type PaymentGroup = Schemas['PaymentGroup'];
export type PaymentStatus = Schemas['PaymentStatus'];
export type SavedCard = Schemas['SavedCard'];
export type SavedCardsResponse = Schemas['SavedCards'];
export type DeletedCardResponse = Schemas['DeletedCard'];
export type VpaCheck = Schemas['VpaCheck'];
/** A UPI address the customer paid from; `paas_id` names it to delete-vpa. */
export type SavedVpa = Schemas['SavedVpa'];
export type SavedVpasResponse = Schemas['SavedVpas'];
export type DeletedVpaResponse = Schemas['DeletedVpa'];
/** A wallet (Paytm, PhonePe…): linked or not, and its balance in paise. */
export type Wallet = Schemas['Wallet'];
export type LinkedWalletsResponse = Schemas['LinkedWallets'];
/** The answer to a wallet or pay-later link: an OTP went out, or it was linked already. */
export type LinkStarted = Schemas['LinkStarted'];
export type Delinked = Schemas['Delinked'];
/** Pay-later: linked or not, and how much it will lend now (paise). */
export type PayLater = Schemas['PayLater'];
/** Tiffin Money: the balance and one page of its history. */
export type MoneyResponse = Schemas['Money'];
export type MoneyTransaction = Schemas['MoneyTransaction'];
export type SuperPlansResponse = Schemas['SuperPlans'];
export type SupportResponse = Schemas['Support'];

// ── Accounts ──
export type SmsPreferences = Schemas['SmsPreferences'];
export type User = Schemas['User'];
export type OtpSent = Schemas['OtpSent'];
export type VerifyOtpRequest = Schemas['VerifyOtpInput'];
export type VerifyOtpResponse = Schemas['SignedIn'];
export type Address = Schemas['Address'];
/** POST address body: an Address without `id` adds, with `id` edits. */
export type AddressInput = Schemas['AddressInput'];
export type AddressesResponse = Schemas['Addresses'];
export type SaveAddressResponse = Schemas['SavedAddress'];
export type FavouritesResponse = Schemas['Favourites'];

// ── Search ──
export type SearchSuggestion = Schemas['SearchSuggestion'];
export type SearchSuggestResponse = Schemas['SearchSuggestions'];
export type SearchTab = Schemas['SearchTab'];
export type SearchDish = Schemas['SearchDish'];
export type SearchResultsResponse = Schemas['SearchResults'];
export type PreSearchResponse = Schemas['PreSearch'];
