/**
 * What the customer tells us with the cart: cutlery (not selected by default;
 * selected sends 'DONT SEND CUTLERY'), a note to the restaurant, and where to deliver (only saved
 * addresses the restaurant delivers to can be chosen). Note and cutlery are kept with the cart by
 * the cart service; the address id by the browser (the cookie the edge bills delivery to).
 */
import { cutlerySelected, ORDER_NOTE_MAX_LENGTH, setCutlerySelection, setDeliveryAddress, setOrderNote } from '@tiffin/cart-store';
import { emit, getCurrentUser, subscribeCurrentUser, type Cart } from '@tiffin/contract';
import { Button, Link } from '@tiffin/design-system';
import { useEffect, useState, useSyncExternalStore } from 'react';

function ignore(): void {
  // The store has rolled back and toasted the failure.
}

export function Cutlery({ cart, disabled = false }: { cart: Cart; disabled?: boolean }) {
  const selected = cutlerySelected(cart.cutlerySelection, cart.restaurant_details?.id);
  return (
    <div className="cart-option cart-cutlery">
      <label className="cart-cutlery__label">
        <input
          type="checkbox"
          checked={selected}
          disabled={disabled}
          onChange={(event) => void setCutlerySelection(event.target.checked).catch(ignore)}
        />{' '}
        Don&apos;t send cutlery
      </label>
      <p className="cart-option__hint">
        {selected ? (
          <>
            The restaurant is told: <strong data-testid="cutlery-instruction">{cart.cutlery_instruction ?? 'DONT SEND CUTLERY'}</strong>
          </>
        ) : (
          'Tick to help us reduce plastic waste.'
        )}
      </p>
    </div>
  );
}

export function OrderNote({ cart, disabled = false }: { cart: Cart; disabled?: boolean }) {
  const saved = cart.order_comments ?? '';
  const [text, setText] = useState(saved);
  // A new reply (another tab, a merge on sign-in) replaces what is shown when not being edited.
  useEffect(() => setText(saved), [saved]);
  const save = () => {
    if (text !== saved) void setOrderNote(text).catch(ignore);
  };
  return (
    <div className="cart-option cart-note">
      <label className="cart-note__label" htmlFor="cart-order-note">
        Any suggestions? We will pass it on…
      </label>
      <textarea
        id="cart-order-note"
        className="cart-note__input"
        maxLength={ORDER_NOTE_MAX_LENGTH}
        rows={2}
        value={text}
        disabled={disabled}
        placeholder="Add a note for the restaurant"
        onChange={(event) => setText(event.target.value)}
        onBlur={save}
      />
      <div className="cart-note__actions">
        <span className="cart-option__hint">
          {text.length}/{ORDER_NOTE_MAX_LENGTH}
        </span>
        <Button variant="link" disabled={disabled || text === saved} onClick={save}>
          Save note
        </Button>
      </div>
    </div>
  );
}

export function DeliveryAddress({ cart }: { cart: Cart }) {
  const user = useSyncExternalStore(subscribeCurrentUser, getCurrentUser, () => null);
  const addresses = cart.addresses ?? [];
  if (!user) {
    return (
      <section className="cart-option cart-address" aria-label="Delivery address">
        <h2 className="cart-option__title">Delivery address</h2>
        <p className="cart-option__hint">Log in to choose one of your saved addresses.</p>
        <Button variant="secondary" onClick={() => emit('auth:open', { mode: 'login' })}>
          LOGIN
        </Button>
      </section>
    );
  }
  return (
    <section className="cart-option cart-address" aria-label="Delivery address">
      <h2 className="cart-option__title">Delivery address</h2>
      {addresses.length === 0 ? (
        <p className="cart-option__hint">
          You have no saved address yet. <Link href="/my-account/addresses">Add an address</Link>
        </p>
      ) : (
        <ul className="cart-address__list">
          {addresses.map((address) => {
            const deliverable = address.delivery_valid === 1;
            return (
              <li key={address.id} className={deliverable ? 'cart-address__item' : 'cart-address__item cart-address__item--unavailable'}>
                <label>
                  <input
                    type="radio"
                    name="cart-address"
                    value={address.id}
                    checked={cart.address_id === address.id}
                    // Delivery addresses are usable only when delivery_valid equals 1.
                    disabled={!deliverable}
                    onChange={() => void setDeliveryAddress(address.id).catch(ignore)}
                  />{' '}
                  <strong>{address.annotation}</strong> <span>{address.address}</span>
                </label>
                {deliverable ? null : <span className="cart-address__reason">Does not deliver here</span>}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
