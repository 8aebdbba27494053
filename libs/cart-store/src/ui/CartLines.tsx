/**
 * The items of a cart: veg mark, name, chosen variants and add-ons, quantity, line price, and what
 * changed since the customer last saw it (out of stock, a new price). The cart page passes
 * `editable` for a quantity stepper; the header flyout shows the quantity as text.
 */
import { setLineQuantity } from '@tiffin/cart-store';
import type { Cart, CartItem } from '@tiffin/contract';
import { formatPrice, VegMark } from '@tiffin/design-system';
import './CartLines.css';

/** The store has already rolled back and toasted a failed change; nothing more to do here. */
function ignoreFailure(): void {}

function Stepper({ line }: { line: CartItem }) {
  const change = (quantity: number) => {
    setLineQuantity(line.cart_key, quantity).catch(ignoreFailure);
  };
  return (
    <span className="cart-stepper" role="group" aria-label={`Quantity of ${line.name}`}>
      <button type="button" className="cart-stepper__button" aria-label={`Remove one ${line.name}`} onClick={() => change(line.quantity - 1)}>
        −
      </button>
      <span className="cart-stepper__count" aria-live="polite">
        {line.quantity}
      </span>
      <button
        type="button"
        className="cart-stepper__button"
        aria-label={`Add one ${line.name}`}
        // An unavailable line can only be reduced or removed.
        disabled={line.in_stock !== 1}
        onClick={() => change(line.quantity + 1)}
      >
        +
      </button>
    </span>
  );
}

/** `lastAddedItemId` (the store's) marks the lines of the item added last. */
export function CartLines({ cart, editable = false, lastAddedItemId = null }: { cart: Cart; editable?: boolean; lastAddedItemId?: string | null }) {
  return (
    <ul className="cart-lines" aria-label="Items in cart">
      {cart.cartItems.map((line) => {
        const extras = [...line.variants.map((v) => v.name), ...line.addons.map((a) => a.name)].filter(Boolean);
        const available = line.in_stock === 1;
        return (
          <li
            key={line.cart_key}
            className={['cart-line', available ? '' : 'cart-line--unavailable', line.menu_item_id === lastAddedItemId ? 'cart-line--last-added' : ''].filter(Boolean).join(' ')}
            data-cart-key={line.cart_key}
          >
            <VegMark isVeg={line.isVeg} />
            <span className="cart-line__name">
              {line.name}
              {extras.length > 0 ? <span className="cart-line__extras">{extras.join(', ')}</span> : null}
              {available ? null : <span className="cart-line__status">Unavailable</span>}
              {available && line.price_changed ? (
                <span className="cart-line__price-change" data-testid="price-changed">
                  {line.previous_price != null
                    ? `Price changed from ${formatPrice(line.previous_price)} to ${formatPrice(line.base_price)}`
                    : `Price changed to ${formatPrice(line.base_price)}`}
                </span>
              ) : null}
            </span>
            {editable ? (
              <Stepper line={line} />
            ) : (
              <span className="cart-line__quantity" aria-label={`Quantity ${line.quantity}`}>
                × {line.quantity}
              </span>
            )}
            <span className="cart-line__price">{formatPrice(line.final_price)}</span>
          </li>
        );
      })}
    </ul>
  );
}
