/**
 * The menu's view of the edge's menu replies (docs/edge-api.md "GET /api/menu/pl" and the menu
 * section after it). The shared contract types name the fields every app needs; the
 * menu page reads a few more, all optional, so an older edge or a partial reply still renders.
 */
import type { MenuItem, MenuResponse, MenuWidget, Restaurant, VariantGroup } from '@tiffin/contract';

/** One offer of the offers strip; `couponCode` is what the customer copies. */
export interface MenuOffer {
  offerId?: string;
  meta?: string;
  header?: string;
  description?: string;
  couponCode?: string;
  offerTag?: string;
}

/** A collection (or cuisine) the restaurant belongs to, linking to a listing page. */
export interface RestaurantCollection {
  id?: string;
  name: string;
  /** A site path such as `/collections/83639` or `/biryani-restaurants-near-me`. */
  link?: string;
}

export interface MenuRestaurant extends Restaurant {
  avgRatingString: string;
  totalRatingsString: string;
  opened?: boolean;
  tmpClosed?: boolean;
  unserviceable?: boolean;
  isMenuDisabled?: boolean;
  feeDetails?: { message?: string; icon?: string } | null;
  delivery_fee_message?: string;
  favourite?: boolean;
  aggregatedDiscountInfo?: {
    shortDescriptionList: Array<{ meta: string }>;
    descriptionList?: MenuOffer[];
  } | null;
  /** The offers strip: coupon codes to copy. */
  offers?: MenuOffer[];
  collections?: RestaurantCollection[];
  /** OPEN, CLOSED or UNSERVICEABLE, with the spec's texts (null when OPEN). */
  deliveryState?: string;
  deliveryStateText?: string | null;
  deliveryStateMessage?: string | null;
}

/** V1 variants (V2 applies when variant groups exist there, else these). */
interface VariantsV1 {
  variant_groups: VariantGroup[];
}

export interface MenuItemFull extends MenuItem {
  subCategory?: string | null;
  /** The original price to strike out, already decided by the edge (null: nothing struck out). */
  struckOutPrice?: number | null;
  /** When an out-of-stock dish comes back ("Next available at 7:00 PM"). */
  nextAvailableAtMessage?: string | null;
  outOfStockMessage?: string | null;
  recommended?: boolean;
  /** Has add-on or variant groups (menu/quick leaves the groups out but keeps this). */
  customisable?: boolean;
  variants?: VariantsV1 | null;
}

export interface FullMenuResponse extends MenuResponse {
  restaurant: MenuRestaurant;
  menu: { widgets: MenuWidget[]; items: Record<string, MenuItemFull>; itemCount?: number };
}
