/**
 * The cart key of a line, the same rule as the cart service
 * (`services/cart/src/lines.rs`): the item id, then the ids of the chosen variations and add-ons
 * sorted together, joined with `|`. `88001` with variation `v1` and add-on `ch1` is `88001|ch1|v1`;
 * an item with nothing chosen is `88001`.
 *
 * The server builds its key from the menu's *priced* selection, which also names the default
 * variation of every group the request left out. A key computed from a selection that omits a
 * variant group can therefore differ from the line the server returns; selections that name every
 * group (what the customisation modal sends) always agree.
 */
import type { CartLineSelection } from '@tiffin/contract';
import type { CartSelection } from './types';

/** A selection as the web keeps it, or a line as POST /api/cart takes it (the id may be a number). */
type Keyed = Pick<CartSelection, 'addons' | 'variants'> & Pick<CartLineSelection, 'menu_item_id'>;

export function cartKey(sel: Keyed): string {
  const ids = [...(sel.variants ?? []).map((v) => v.variation_id), ...(sel.addons ?? []).map((a) => a.choice_id)];
  // Default sort compares UTF-16 code units: byte order for the ASCII ids the catalogue uses,
  // which is what Rust's `sort_unstable` on &str gives the server.
  ids.sort();
  return [String(sel.menu_item_id), ...ids].join('|');
}
