import type { Cart } from '@tiffin/contract';
import { formatPrice, VegMark } from '@tiffin/design-system';

/** The items of a cart: veg mark, name, chosen variants and add-ons, quantity, price. */
export function CartLines({ cart }: { cart: Cart }) {
  return (
    <ul className="cart-lines" aria-label="Items in cart">
      {cart.cartItems.map((line) => {
        const extras = [...line.variants.map((v) => v.name), ...line.addons.map((a) => a.name)];
        return (
          <li key={line.cart_key} className={line.in_stock === 1 ? 'cart-line' : 'cart-line cart-line--unavailable'}>
            <VegMark isVeg={line.isVeg} />
            <span className="cart-line__name">
              {line.name}
              {extras.length > 0 ? <span className="cart-line__extras">{extras.join(', ')}</span> : null}
              {line.in_stock !== 1 ? <span className="cart-line__status">Unavailable</span> : null}
            </span>
            <span className="cart-line__quantity" aria-label="Quantity">
              × {line.quantity}
            </span>
            <span className="cart-line__price">{formatPrice(line.final_price)}</span>
          </li>
        );
      })}
    </ul>
  );
}
