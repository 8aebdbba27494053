/**
 * Payments: the saved cards, each deletable after a confirmation; the saved UPI IDs, wallets and
 * pay-later (in PaymentAccounts); and Tiffin Money, its balance and history paged 10 at a time.
 */
import { edge } from '@tiffin/api-client';
import { showToast, type MoneyResponse, type MoneyTransaction, type SavedCard } from '@tiffin/contract';
import { AsyncContent, Button, formatPrice, useAsync } from '@tiffin/design-system';
import { useState } from 'react';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { errorMessage } from '../common/errors';
import { PayLaterSection, SavedVpas, Wallets } from './PaymentAccounts';

const DELETE_CARD_CONFIRMATION = 'Are you sure you want to delete this card?';

const NETWORK_NAMES: Record<string, string> = {
  VISA: 'Visa',
  MASTERCARD: 'Mastercard',
  AMEX: 'American Express',
  RUPAY: 'RuPay',
  DINERS: 'Diners Club',
  DISCOVER: 'Discover',
};

function networkName(network: string): string {
  return NETWORK_NAMES[network.toUpperCase()] ?? network;
}

/** A card is good through the last day of its expiry month. */
function isExpired(card: SavedCard, now: Date): boolean {
  const year = now.getFullYear();
  const month = now.getMonth() + 1;
  return card.expiry_year < year || (card.expiry_year === year && card.expiry_month < month);
}

function expiryText(card: SavedCard): string {
  const mm = String(card.expiry_month).padStart(2, '0');
  const yy = String(card.expiry_year % 100).padStart(2, '0');
  return `${isExpired(card, new Date()) ? 'Expired' : 'Expires'} ${mm}/${yy}`;
}

function CardList({ initial }: { initial: SavedCard[] }) {
  const [cards, setCards] = useState(initial);
  const [deleting, setDeleting] = useState<SavedCard | null>(null);
  const [busy, setBusy] = useState(false);

  const remove = async (card: SavedCard) => {
    setBusy(true);
    try {
      await edge.deleteCard(card.card_reference);
      setCards((list) => list.filter((c) => c.card_reference !== card.card_reference));
    } catch (e) {
      showToast({ text: errorMessage(e), status: 'error' });
    } finally {
      // Closed either way: on failure the toast says why and the card stays in the list.
      setDeleting(null);
      setBusy(false);
    }
  };

  return (
    <>
      {cards.length === 0 ? (
        <p className="acct-muted">You have no saved cards.</p>
      ) : (
        <ul className="acct-saved-cards">
          {cards.map((card) => (
            <li key={card.card_reference} className="acct-saved-card" data-testid="saved-card">
              <div className="acct-saved-card__body">
                <strong className="acct-saved-card__network">{networkName(card.network)}</strong>
                <span className="acct-saved-card__number">
                  {/* The dots are decoration: a screen reader says the last four digits alone. */}
                  <span aria-hidden="true">•••• </span>
                  {card.last4}
                </span>
                <span className="acct-muted">{expiryText(card)}</span>
              </div>
              <Button variant="link" onClick={() => setDeleting(card)}>
                DELETE
              </Button>
            </li>
          ))}
        </ul>
      )}
      {deleting ? (
        <ConfirmDialog message={DELETE_CARD_CONFIRMATION} confirmLabel="DELETE" busy={busy} onConfirm={() => void remove(deleting)} onCancel={() => setDeleting(null)} />
      ) : null}
    </>
  );
}

/** Tiffin Money is an Indian wallet, so its history reads in India's time zone wherever the browser is. */
const historyDate = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Kolkata' });

function TransactionRow({ txn }: { txn: MoneyTransaction }) {
  const credit = txn.direction === 'CREDIT';
  const debit = txn.direction === 'DEBIT';
  return (
    <tr data-testid="money-transaction">
      <td>
        <time dateTime={txn.created_at}>{historyDate.format(new Date(txn.created_at))}</time>
      </td>
      <td className="acct-money__credit">{credit ? formatPrice(txn.amount) : ''}</td>
      <td className="acct-money__debit">{debit ? formatPrice(txn.amount) : ''}</td>
      <td>{formatPrice(txn.balance_after)}</td>
      <td>{txn.description}</td>
    </tr>
  );
}

function MoneyHistory({ first }: { first: MoneyResponse }) {
  const [balance, setBalance] = useState(first.balance);
  const [transactions, setTransactions] = useState(first.transactions);
  // An empty page cannot name the next one, so it ends the paging whatever the flag says.
  const [hasMore, setHasMore] = useState(first.hasMoreTxns && first.transactions.length > 0);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const more = async () => {
    const last = transactions[transactions.length - 1];
    if (!last) return;
    setLoading(true);
    setError(null);
    try {
      const page = await edge.money(last.transaction_id);
      setBalance(page.balance);
      setTransactions((list) => [...list, ...page.transactions]);
      setHasMore(page.hasMoreTxns && page.transactions.length > 0);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setLoading(false);
    }
  };

  return (
    <>
      <p className="acct-money__balance">Balance: {formatPrice(balance)}</p>
      {transactions.length === 0 ? (
        <p className="acct-muted">No Tiffin Money transactions yet.</p>
      ) : (
        <div className="acct-money__scroll" role="region" aria-label="Tiffin Money history" tabIndex={0}>
          <table className="acct-money__table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Credit</th>
                <th scope="col">Debit</th>
                <th scope="col" title="Balance after the transaction">
                  Amount
                </th>
                <th scope="col">Remarks</th>
              </tr>
            </thead>
            <tbody>
              {transactions.map((txn) => (
                <TransactionRow key={txn.transaction_id} txn={txn} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {error ? (
        <p className="acct-error" role="alert">
          {error}
        </p>
      ) : null}
      {hasMore ? (
        <Button variant="secondary" onClick={() => void more()} disabled={loading}>
          Show more
        </Button>
      ) : null}
    </>
  );
}

function SavedCards() {
  const state = useAsync((signal) => edge.savedCards({ signal }), []);
  return <AsyncContent state={state}>{({ cards }) => <CardList initial={cards} />}</AsyncContent>;
}

function TiffinMoney() {
  const state = useAsync((signal) => edge.money(undefined, { signal }), []);
  return <AsyncContent state={state}>{(data) => <MoneyHistory first={data} />}</AsyncContent>;
}

export function Payments() {
  return (
    <div className="acct-payments">
      <section className="acct-card acct-payments__cards" aria-label="Saved cards">
        <h3>Saved cards</h3>
        <SavedCards />
      </section>
      <section className="acct-card acct-payments__vpas" aria-label="UPI IDs">
        <h3>UPI IDs</h3>
        <SavedVpas />
      </section>
      <section className="acct-card acct-payments__wallets" aria-label="Wallets">
        <h3>Wallets</h3>
        <Wallets />
      </section>
      <section className="acct-card acct-payments__pay-later" aria-label="Pay Later">
        <h3>Pay Later</h3>
        <PayLaterSection />
      </section>
      <section className="acct-card acct-payments__money" aria-label="Tiffin Money">
        <h3>Tiffin Money</h3>
        <TiffinMoney />
      </section>
    </div>
  );
}
