/**
 * The menu's side of the cart (item pricing and the cart key), on top of
 * @tiffin/cart-store, the one cart every microfrontend shares. The store queues, shows changes
 * optimistically, rolls back failures and toasts the server's message itself; this hook only
 * decides what a tap means and asks before replacing another restaurant's cart.
 */
import {
  addItem,
  fetchCart,
  isDifferentRestaurantError,
  lastSelectionOf,
  linesOfItem,
  quantityOfItem,
  replaceCart,
  setLineQuantity,
  useCart,
  type CartSelection,
  type OptimisticDisplay,
} from '@tiffin/cart-store';
import { showToast, type MenuItem, type Restaurant } from '@tiffin/contract';
import { useCallback, useEffect, useState } from 'react';
import { itemPrice } from './menu-rules';

/** Shown when − is tapped on an item that sits in the cart with several customisations. */
const MULTIPLE_CUSTOMISATIONS_MESSAGE = 'This item has multiple customisations added. Remove the correct item from the cart.';

interface CartConflict {
  /** The restaurant whose items are in the cart now. */
  currentRestaurantName: string;
  selection: CartSelection;
  display: OptimisticDisplay;
}

function ignore(): void {
  // The store has already rolled back and toasted the server's message.
}

export function useMenuCart(restaurant: Restaurant) {
  // Subscribes this page to the store, so the quantities below re-render on every change.
  const snapshot = useCart();
  const [conflict, setConflict] = useState<CartConflict | null>(null);

  useEffect(() => {
    // Quantities on the menu must reflect the cart the server holds, not an empty one.
    fetchCart().catch(ignore);
  }, []);

  const display = useCallback(
    (item: MenuItem, unitPrice: number): OptimisticDisplay => ({
      restaurant: { name: restaurant.name, area_name: restaurant.areaName, cloudinary_image_id: restaurant.cloudinaryImageId, opened: restaurant.availability.opened },
      item: { name: item.name, isVeg: item.isVeg, unitPrice },
    }),
    [restaurant],
  );

  /**
   * Adds a selection; another restaurant's cart opens the "start afresh" question instead.
   * Resolves false when the server refused the line (the store has toasted its message), so the
   * customisation modal can stay open.
   */
  const add = useCallback(
    async (item: MenuItem, selection: CartSelection, unitPrice = itemPrice(item)): Promise<boolean> => {
      const shown = display(item, unitPrice);
      try {
        await addItem(restaurant.id, selection, shown);
        return true;
      } catch (error) {
        if (isDifferentRestaurantError(error)) {
          setConflict({ currentRestaurantName: error.currentRestaurantName, selection, display: shown });
          return true;
        }
        return false;
      }
    },
    [display, restaurant.id],
  );

  const startAfresh = useCallback(async () => {
    if (!conflict) return;
    setConflict(null);
    await replaceCart(restaurant.id, conflict.selection, conflict.display).catch(ignore);
  }, [conflict, restaurant.id]);

  const keepCart = useCallback(() => setConflict(null), []);

  /** − : the item's only line goes down by one; with several customisations the cart decides. */
  const decrement = useCallback((item: MenuItem) => {
    const lines = linesOfItem(item.id);
    if (lines.length > 1) {
      showToast({ text: MULTIPLE_CUSTOMISATIONS_MESSAGE });
      return;
    }
    const line = lines[0];
    if (line) setLineQuantity(line.cart_key, line.quantity - 1).catch(ignore);
  }, []);

  return {
    updating: snapshot.updating,
    quantityOf: (itemId: string) => quantityOfItem(itemId),
    /** The customisation "Repeat last" would add, or null when the item is not in the cart. */
    lastSelectionOf: (itemId: string) => lastSelectionOf(itemId),
    add,
    decrement,
    conflict,
    startAfresh,
    keepCart,
  };
}
