/**
 * Why the bill carries a "Cancellation Fee": a cash-on-delivery order the customer cancelled after
 * the restaurant confirmed it kept a fee nobody collected, so this order collects it. Every word
 * is the cart service's (`cancellation_message`); the amount is its bill line, never worked out
 * here. Nothing is shown when the cart owes nothing.
 */
import type { Cart } from '@tiffin/contract';
import { Image, Link } from '@tiffin/design-system';
import { useId } from 'react';
import './CancellationMessage.css';

export function CancellationMessage({ cart }: { cart: Cart }) {
  const titleId = useId();
  const message = cart.cancellation_message;
  if (!message) return null;
  return (
    <aside className="cart-cancellation" aria-labelledby={titleId}>
      {message.icon_url ? <Image src={message.icon_url} alt="" width={32} height={32} /> : <span className="cart-cancellation__icon" aria-hidden="true">!</span>}
      <div className="cart-cancellation__body">
        <h2 id={titleId} className="cart-cancellation__title">
          {message.title}
        </h2>
        <p className="cart-cancellation__message">{message.message}</p>
        {message.points.length > 0 ? (
          <ul className="cart-cancellation__points">
            {message.points.map((point) => (
              <li key={point}>{point}</li>
            ))}
          </ul>
        ) : null}
        {message.buttons.map((button) => (
          <Link key={button.link} href={button.link} className="cart-cancellation__button">
            {button.text}
          </Link>
        ))}
      </div>
    </aside>
  );
}
