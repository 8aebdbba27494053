/** mfe_cart/App: the cart page (/cart). */
import type { RemoteAppProps } from '@tiffin/contract';
import { AsyncContent, ErrorState, formatPrice, Image, imageUrl, Link, MfeRoot } from '@tiffin/design-system';
import { CartLines } from './CartLines';
import { useCart } from './useCart';
import './cart.css';

function CartPage() {
  const cart = useCart();
  return (
    <AsyncContent state={cart}>
      {(data) => {
        if (!data.restaurant_details || data.cartItems.length === 0) {
          return (
            <ErrorState role="region" title="Your cart is empty" message="You can go to home page to view more restaurants">
              <Link href="/" className="cart-page__cta">
                SEE RESTAURANTS NEAR YOU
              </Link>
            </ErrorState>
          );
        }
        const restaurant = data.restaurant_details;
        return (
          <section className="cart-page" aria-label="Cart">
            <header className="cart-page__restaurant">
              <Image src={imageUrl(restaurant.cloudinary_image_id, { w: 100, h: 100 })} alt={restaurant.name} width={50} height={50} eager />
              <div>
                <h1 className="cart-page__name">{restaurant.name}</h1>
                <p className="cart-page__area">{restaurant.area_name}</p>
              </div>
            </header>
            <CartLines cart={data} />
            <div className="cart-page__bill">
              <span>Item Total</span>
              <strong>{formatPrice(data.item_total)}</strong>
            </div>
            <Link href="/checkout" className="cart-page__cta">
              PROCEED TO CHECKOUT
            </Link>
          </section>
        );
      }}
    </AsyncContent>
  );
}

export default function App(_props: RemoteAppProps) {
  return (
    <MfeRoot mfe="mfe-cart" version={__MFE_VERSION__} className="cart-root">
      <CartPage />
    </MfeRoot>
  );
}
