/**
 * mfe_cart/HeaderCart: the header's cart flyout. Empty: an invitation to order from
 * the menu. Otherwise: restaurant name and image, items (name, quantity, veg mark, price), the
 * subtotal and a checkout button. It reads the shared cart store and refreshes it when opened
 * (joining a fetch already in flight).
 */
import { fetchCart, useCart } from '@tiffin/cart-store';
import { navigate, type HeaderCartProps } from '@tiffin/contract';
import { Button, formatPrice, Image, imageUrl, MfeRoot, Skeleton } from '@tiffin/design-system';
import { useEffect } from 'react';
import { CartLines } from '@tiffin/cart-store/ui';
import { CartFailure } from './CartStatus';
import './cart.css';

function FlyoutContent({ onClose }: HeaderCartProps) {
  const { cart, statusCode, error } = useCart();

  useEffect(() => {
    fetchCart().catch(() => {});
  }, []);

  if (!cart) return error ? <CartFailure statusCode={statusCode} /> : <Skeleton height={64} />;

  const restaurant = cart.restaurant_details;
  if (!restaurant || cart.cartItems.length === 0) {
    return (
      <div className="cart-flyout__empty">
        <h2 className="cart-flyout__title">Cart Empty</h2>
        <p>Good food is always cooking! Go ahead, order some yummy items from the menu.</p>
      </div>
    );
  }

  return (
    <div className="cart-flyout__filled">
      <div className="cart-flyout__restaurant">
        {/* Twice the displayed size, for high-density screens. */}
        {restaurant.cloudinary_image_id ? (
          <Image src={imageUrl(restaurant.cloudinary_image_id, { w: 100, h: 100 })} alt={restaurant.name} width={50} height={50} eager />
        ) : null}
        <div>
          <p className="cart-flyout__name">{restaurant.name}</p>
          <p className="cart-flyout__area">{restaurant.area_name}</p>
        </div>
      </div>
      <CartLines cart={cart} />
      <p className="cart-flyout__subtotal">
        <span>Sub total</span> <strong>{formatPrice(cart.item_total)}</strong>
      </p>
      <p className="cart-flyout__note">Delivery fee and taxes are added at checkout.</p>
      <Button
        block
        onClick={() => {
          onClose?.();
          navigate('/checkout');
        }}
      >
        CHECKOUT
      </Button>
    </div>
  );
}

export default function HeaderCart({ onClose }: HeaderCartProps) {
  return (
    <MfeRoot mfe="mfe-cart" version={__MFE_VERSION__} className="cart-flyout">
      <FlyoutContent onClose={onClose} />
    </MfeRoot>
  );
}
