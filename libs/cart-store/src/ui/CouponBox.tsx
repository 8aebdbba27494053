/**
 * The coupon box: type a code or pick one of the cart's coupons, see what it
 * saved, remove it. A coupon that does not apply shows the server's reason next to the box (the
 * cart is unchanged). The best applicable coupon is suggested first. Every rule is the server's
 * (docs/coupons.md); this only shows what the cart says.
 */
import { applyCoupon, failureMessage, removeCoupon, removeReward } from '@tiffin/cart-store';
import type { Cart } from '@tiffin/contract';
import { Button, formatPrice } from '@tiffin/design-system';
import { useState, type FormEvent } from 'react';
import './CouponBox.css';

function ignore(): void {
  // The store has toasted the failure and kept the cart as it was.
}

export function CouponBox({ cart, disabled = false }: { cart: Cart; disabled?: boolean }) {
  const [code, setCode] = useState('');
  const [reason, setReason] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const apply = async (couponCode: string) => {
    if (!couponCode.trim()) {
      setReason('Please enter a coupon code.');
      return;
    }
    setBusy(true);
    setReason(null);
    try {
      await applyCoupon(couponCode);
      setCode('');
    } catch (error) {
      setReason(failureMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void apply(code);
  };

  const applied = cart.coupon_code ? cart.coupon_details : null;
  const coupons = cart.coupons ?? [];
  const best = cart.best_coupon && !cart.coupon_code ? coupons.find((c) => c.code === cart.best_coupon && c.applicable) : undefined;
  const freebies = cart.cartFreebieItems ?? [];

  return (
    <section className="cart-coupons" aria-label="Coupons">
      {cart.coupon_code ? (
        <div className="cart-coupons__applied" data-testid="coupon-applied">
          <p className="cart-coupons__code">
            <strong>{cart.coupon_code}</strong> {cart.discount_message_type === 'ERROR' ? 'not applied' : 'applied'}
          </p>
          {applied?.title ? <p className="cart-coupons__title">{applied.title}</p> : null}
          {cart.discount_message ? (
            <p className={cart.discount_message_type === 'ERROR' ? 'cart-coupons__message cart-coupons__message--error' : 'cart-coupons__message'} role="status">
              {cart.discount_message}
            </p>
          ) : null}
          <Button variant="link" disabled={disabled} onClick={() => void removeCoupon().catch(ignore)}>
            REMOVE
          </Button>
        </div>
      ) : (
        <form className="cart-coupons__form" onSubmit={onSubmit}>
          <label className="cart-coupons__label" htmlFor="cart-coupon-code">
            Apply Coupon
          </label>
          <input
            id="cart-coupon-code"
            className="cart-coupons__input"
            placeholder="Enter coupon code"
            value={code}
            autoCapitalize="characters"
            disabled={disabled || busy}
            onChange={(event) => {
              setCode(event.target.value);
              setReason(null);
            }}
          />
          <Button type="submit" disabled={disabled || busy}>
            APPLY
          </Button>
          {reason ? (
            <p className="cart-coupons__message cart-coupons__message--error" role="alert">
              {reason}
            </p>
          ) : null}
        </form>
      )}
      {best ? (
        <p className="cart-coupons__best" data-testid="best-coupon">
          Best coupon: <strong>{best.code}</strong> saves you {formatPrice(best.discount)}{' '}
          <Button variant="link" disabled={disabled || busy} onClick={() => void apply(best.code)}>
            APPLY {best.code}
          </Button>
        </p>
      ) : null}
      {freebies.map((item) => (
        <p key={item.id} className="cart-coupons__freebie" data-testid="cart-freebie">
          <span>{item.message || '1 Free Delight for you'}</span> <span>{item.name}</span> <strong>FREE</strong>{' '}
          <Button variant="link" disabled={disabled} onClick={() => void removeReward().catch(ignore)}>
            Remove
          </Button>
        </p>
      ))}
      {coupons.length > 0 && !cart.coupon_code ? (
        <ul className="cart-coupons__list" aria-label="Available coupons">
          {coupons.map((coupon) => (
            <li key={coupon.code} className={coupon.applicable ? 'cart-coupon' : 'cart-coupon cart-coupon--unavailable'} data-coupon={coupon.code}>
              <span className="cart-coupon__code">{coupon.code}</span>
              <span className="cart-coupon__title">{coupon.title}</span>
              <span className="cart-coupon__description">{coupon.description}</span>
              {coupon.message ? <span className="cart-coupon__message">{coupon.message}</span> : null}
              {coupon.applicable ? (
                <Button variant="secondary" disabled={disabled || busy} aria-label={`Apply ${coupon.code}`} onClick={() => void apply(coupon.code)}>
                  APPLY
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
