/**
 * Step 2, where to deliver: the customer's saved addresses as the cart service billed them. Only
 * the ones the restaurant delivers to (`delivery_valid` 1) can be chosen; choosing one bills the
 * cart to it. New addresses are added in the account area, which owns the address form.
 */
import type { Cart } from '@tiffin/contract';
import { Link } from '@tiffin/design-system';

export const ADD_ADDRESS_HREF = '/my-account/manage_addresses';

export function AddressStep({
  cart,
  signedIn,
  onChoose,
  busy,
}: {
  cart: Cart | null;
  signedIn: boolean;
  onChoose: (id: string) => void;
  busy: boolean;
}) {
  const addresses = cart?.addresses ?? [];
  const chosen = addresses.find((a) => a.id === cart?.address_id && a.delivery_valid === 1);
  return (
    <section className="chk-step" aria-label="Delivery address" aria-busy={busy}>
      <h2 className="chk-step__title">Delivery address</h2>
      {!signedIn ? (
        <p className="chk-step__hint">Log in to choose where to deliver.</p>
      ) : addresses.length === 0 ? (
        <div className="chk-step__empty" role="status">
          <p className="chk-step__hint">You don&apos;t have an address to deliver.</p>
          <Link href={ADD_ADDRESS_HREF} className="chk-button-link">
            Add a new address
          </Link>
        </div>
      ) : (
        <>
          {addresses.some((a) => a.delivery_valid === 1) ? (
            chosen ? null : <p className="chk-step__hint">Choose where to deliver this order.</p>
          ) : (
            <p className="chk-step__warning" role="status">
              The restaurant does not deliver to any of your saved addresses. Add a new address to continue.
            </p>
          )}
          <ul className="chk-addresses">
            {addresses.map((address) => {
              const deliverable = address.delivery_valid === 1;
              return (
                <li key={address.id} className={deliverable ? 'chk-address' : 'chk-address chk-address--unavailable'}>
                  <label className="chk-address__label">
                    <input
                      type="radio"
                      name="chk-address"
                      value={address.id}
                      checked={chosen?.id === address.id}
                      disabled={!deliverable || busy}
                      onChange={() => onChoose(address.id)}
                    />
                    <span>
                      <strong className="chk-address__annotation">{address.annotation}</strong>
                      <span className="chk-address__text">{address.address}</span>
                      {deliverable ? null : <span className="chk-address__reason">Does not deliver here</span>}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
          <Link href={ADD_ADDRESS_HREF}>Add a new address</Link>
        </>
      )}
    </section>
  );
}
