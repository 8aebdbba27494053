/**
 * mfe_cart/HeaderCart: the header's cart flyout (spec 000 §2.7). Empty: an invitation to order
 * from the menu. Otherwise: restaurant name and image, items, subtotal and a checkout button.
 */
import { navigate, type HeaderCartProps } from '@tiffin/contract';
import { AsyncContent, Button, formatPrice, Image, imageUrl, MfeRoot, Skeleton } from '@tiffin/design-system';
import { CartLines } from './CartLines';
import { useCart } from './useCart';
import './cart.css';

export default function HeaderCart({ onClose }: HeaderCartProps) {
  const cart = useCart();
  return (
    <MfeRoot mfe="mfe-cart" version={__MFE_VERSION__} className="cart-flyout">
      <AsyncContent state={cart} skeleton={<Skeleton height={64} />}>
        {(data) =>
          !data.restaurant_details || data.cartItems.length === 0 ? (
            <div className="cart-flyout__empty">
              <h2 className="cart-flyout__title">Cart Empty</h2>
              <p>Good food is always cooking! Go ahead, order some yummy items from the menu.</p>
            </div>
          ) : (
            <div className="cart-flyout__filled">
              <div className="cart-flyout__restaurant">
                {/* Twice the displayed size, for high-density screens (spec §9). */}
                <Image src={imageUrl(data.restaurant_details.cloudinary_image_id, { w: 100, h: 100 })} alt={data.restaurant_details.name} width={50} height={50} eager />
                <div>
                  <p className="cart-flyout__name">{data.restaurant_details.name}</p>
                  <p className="cart-flyout__area">{data.restaurant_details.area_name}</p>
                </div>
              </div>
              <CartLines cart={data} />
              <p className="cart-flyout__subtotal">
                <span>Sub total</span> <strong>{formatPrice(data.item_total)}</strong>
              </p>
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
          )
        }
      </AsyncContent>
    </MfeRoot>
  );
}
