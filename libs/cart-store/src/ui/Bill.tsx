/**
 * The bill: every line the cart service priced, in its order, each with its tooltip
 * (what the charge is and how it was worked out), then "To Pay". The browser adds nothing up:
 * `to_pay` is the server's, and a line's amount is shown as sent (discounts are negative).
 */
import type { CartBill } from '@tiffin/contract';
import { formatPrice } from '@tiffin/design-system';
import { useId, useState } from 'react';
import './Bill.css';

/**
 * An info button whose text shows on hover, on keyboard focus and on a tap (touch screens have no
 * hover); Escape hides it. The text is always the button's description for screen readers.
 */
function InfoTooltip({ label, text }: { label: string; text: string }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <span className="cart-tooltip" onMouseEnter={() => setOpen(true)} onMouseLeave={() => setOpen(false)}>
      <button
        type="button"
        className="cart-tooltip__button"
        aria-label={`About ${label}`}
        aria-describedby={id}
        aria-expanded={open}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        // A pointer click also hovers and focuses: it must open, never toggle shut (Escape closes).
        onClick={() => setOpen(true)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
        }}
      >
        i
      </button>
      <span id={id} role="tooltip" className="cart-tooltip__text" hidden={!open}>
        {text}
      </span>
    </span>
  );
}

export function Bill({ bill, updating = false }: { bill: CartBill; updating?: boolean }) {
  return (
    <section className="cart-bill" aria-label="Bill Details" aria-busy={updating}>
      <h2 className="cart-bill__title">Bill Details</h2>
      <dl className="cart-bill__lines">
        {bill.lines.map((line) => (
          <div key={line.key} className={line.amount < 0 ? 'cart-bill__line cart-bill__line--discount' : 'cart-bill__line'} data-bill-line={line.key}>
            <dt>
              {line.label}
              {line.tooltip ? <InfoTooltip label={line.label} text={line.tooltip} /> : null}
            </dt>
            <dd data-testid={line.key === 'ITEM_TOTAL' ? 'cart-item-total' : undefined}>
              {line.key === 'DELIVERY_FEE' && line.amount === 0 ? 'FREE' : formatPrice(line.amount)}
            </dd>
          </div>
        ))}
      </dl>
      <p className="cart-bill__to-pay">
        <span>TO PAY</span>
        <strong data-testid="cart-to-pay">{formatPrice(bill.to_pay)}</strong>
      </p>
    </section>
  );
}
