import type { Cart } from '@tiffin/contract';

/** What the customer chose for one line. Never carries a price: the cart service prices lines. */
export interface CartSelection {
  menu_item_id: string;
  quantity: number;
  addons?: Array<{ group_id: string; choice_id: string }>;
  variants?: Array<{ group_id: string; variation_id: string }>;
}

type CartRestaurantDetails = NonNullable<Cart['restaurant_details']>;

/**
 * Optional display facts for an optimistic line that is not in the cart yet (name, veg flag,
 * unit price in paise, the restaurant's header). Only shown until the server's reply replaces the
 * line; never sent to the server.
 */
export interface OptimisticDisplay {
  restaurant?: Omit<CartRestaurantDetails, 'id'>;
  item?: { name: string; isVeg?: number; unitPrice?: number };
}

export interface CartSnapshot {
  /**
   * The cart as shown: the server's last reply with every queued or in-flight change applied
   * (optimistic). `null` before the first successful fetch and after a failed fetch (spec: the
   * cart resets; `statusCode` then says why).
   */
  cart: Cart | null;
  /** A fetch is in flight. */
  fetching: boolean;
  /** An update is in flight or queued. */
  updating: boolean;
  /**
   * The last reply's cart status: 0, 8 (items unavailable) or 9 on success; on failure the HTTP
   * status when the edge answered with one (429, 503, …), else the envelope's code (11 too many
   * items, …), or -1 when there was no answer.
   */
  statusCode: number;
  /** The last failure's message (the server's statusMessage), cleared by the next success. */
  error: string | null;
  /**
   * The menu item id of the first line that was new or grew in the last applied reply
   * (null until something is added after the first load; kept when a reply adds nothing; cleared by
   * `removeLastAddedItemId` and `resetCart`).
   */
  lastAddedItemId: string | null;
}
