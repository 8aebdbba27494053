/**
 * Step 2, where to deliver: the customer's saved addresses as the cart service billed them. Only
 * the ones the restaurant delivers to (`delivery_valid` 1) can be chosen; choosing one bills the
 * cart to it. ADD NEW ADDRESS opens the shared address form (@tiffin/address-form) right here, so
 * the customer never leaves checkout; what happens to a saved address is the page's call.
 */
import { AddressForm } from '@tiffin/address-form';
import type { Address, Cart } from '@tiffin/contract';
import { Button } from '@tiffin/design-system';
import { useState } from 'react';

export function AddressStep({
  cart,
  signedIn,
  onChoose,
  onAdded,
  notice,
  busy,
}: {
  cart: Cart | null;
  signedIn: boolean;
  onChoose: (id: string) => void;
  /** A new address was saved from the inline form. */
  onAdded: (saved: Address) => void;
  /** What became of the last address added here, when the customer must be told. */
  notice: string | null;
  busy: boolean;
}) {
  const [adding, setAdding] = useState(false);
  const addresses = cart?.addresses ?? [];
  const chosen = addresses.find((a) => a.id === cart?.address_id && a.delivery_valid === 1);

  const addForm = adding ? (
    <div className="chk-address-form" role="group" aria-label="Add a new address">
      <h3 className="chk-address-form__title">Add a new address</h3>
      <AddressForm
        address={null}
        onCancel={() => setAdding(false)}
        onSaved={(_addresses, saved) => {
          setAdding(false);
          onAdded(saved);
        }}
      />
    </div>
  ) : (
    <div className="chk-step__actions">
      <Button variant="secondary" onClick={() => setAdding(true)} disabled={busy}>
        ADD NEW ADDRESS
      </Button>
    </div>
  );

  return (
    <section className="chk-step" aria-label="Delivery address" aria-busy={busy}>
      <h2 className="chk-step__title">Delivery address</h2>
      {!signedIn ? (
        <p className="chk-step__hint">Log in to choose where to deliver.</p>
      ) : addresses.length === 0 ? (
        <div className="chk-step__empty" role="status">
          <p className="chk-step__hint">You don&apos;t have an address to deliver.</p>
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
        </>
      )}
      {notice ? (
        <p className="chk-step__warning" role="status">
          {notice}
        </p>
      ) : null}
      {signedIn ? addForm : null}
    </section>
  );
}
