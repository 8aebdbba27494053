/** The restaurant at the top of a cart: image, name, area and the delivery time the cart reports. */
import type { Cart } from '@tiffin/contract';
import { formatDeliveryTime, Image, imageUrl } from '@tiffin/design-system';
import './CartRestaurant.css';

/** '25-35 MINS' from the cart's estimates, or null when the delivery point is unknown. */
function cartEta(cart: Cart): string | null {
  const min = cart.estimated_sla_min;
  const max = cart.estimated_sla_max;
  if (typeof min === 'number' && typeof max === 'number' && max > 0) return formatDeliveryTime(min, max);
  if (typeof cart.sla_time === 'number' && cart.sla_time > 0) return formatDeliveryTime(cart.sla_time, cart.sla_time);
  return null;
}

/** The restaurant at the top of the cart (page and menu panel): image, name, area, delivery time. */
/** `as`: the name's element: the cart page's h1, or a plain paragraph inside another page (the menu). */
export function CartRestaurant({ cart, as = 'h1' }: { cart: Cart; as?: 'h1' | 'p' }) {
  const restaurant = cart.restaurant_details;
  if (!restaurant) return null;
  const eta = cartEta(cart);
  const Heading = as;
  return (
    <header className="cart-page__restaurant">
      {restaurant.cloudinary_image_id ? (
        <Image src={imageUrl(restaurant.cloudinary_image_id, { w: 100, h: 100 })} alt={restaurant.name} width={50} height={50} eager />
      ) : null}
      <div>
        <Heading className="cart-page__name">{restaurant.name}</Heading>
        <p className="cart-page__area">{restaurant.area_name}</p>
        {eta ? (
          <p className="cart-page__eta" data-testid="cart-eta">
            Delivery in {eta}
          </p>
        ) : null}
      </div>
    </header>
  );
}

