/**
 * The menu page's names for the edge's menu replies. Every shape is the edge's own, generated from
 * its OpenAPI document (`@tiffin/contract`, `edge-api.gen.ts`): the header (`MenuRestaurant`), the
 * full item with its customisation (`MenuItem`) and the page (`MenuResponse`).
 */
import type { MenuItem, MenuResponse } from '@tiffin/contract';

/** The header; an offer's `couponCode` is what the customer copies. */
export type { MenuOffer, MenuRestaurant } from '@tiffin/contract';

/** An item as `menu/pl` sends it (`menu/quick` leaves out `addons`, `variants` and `variantsV2`). */
export type MenuItemFull = MenuItem;

export type FullMenuResponse = MenuResponse;
