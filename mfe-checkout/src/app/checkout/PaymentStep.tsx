/**
 * Step 3, how to pay: the payment methods the payments service offers (known groups only), with a
 * form for each method checkout can take (card, a saved card, a UPI id, cash on delivery, a linked
 * wallet, Tiffin Money), and the "Pay ₹X" button. A wallet or Tiffin Money whose balance is below
 * the bill is shown but cannot be chosen, with the reason. It only gathers the instrument; placing the order is the page's.
 */
import { customerMessage, edge } from '@tiffin/api-client';
import type { PaymentGroup, PlaceOrderPayment, SavedCard, VpaCheck, Wallet } from '@tiffin/contract';
import { AsyncContent, Button, formatPrice, useAsync } from '@tiffin/design-system';
import { useState, type FormEvent, type ReactNode } from 'react';
import { knownGroups } from '../PaymentMethods';
import { CARD_MESSAGES, EMPTY_CARD, isValidCvv, readCard, type CardFields } from './card';

/** Payment codes checkout can pay with; the other methods are listed but not offered yet. */
const PAYABLE = new Set(['card', 'upi_collect', 'cod']);

type Choice =
  | { kind: 'card' }
  | { kind: 'upi_collect' }
  | { kind: 'cod' }
  | { kind: 'saved_card'; card: SavedCard }
  | { kind: 'wallet'; code: string }
  | { kind: 'tiffin_money' };

function choiceKey(choice: Choice | null): string {
  if (!choice) return '';
  if (choice.kind === 'saved_card') return `saved:${choice.card.card_reference}`;
  if (choice.kind === 'wallet') return choice.code.toUpperCase();
  return choice.kind;
}

/** Why a balance cannot pay the bill, or null when it can (or the bill is not known yet). */
export function shortOf(balance: number, toPay: number | null, what: string): string | null {
  return toPay !== null && balance < toPay ? `Not enough ${what}: ${formatPrice(balance)} for a bill of ${formatPrice(toPay)}` : null;
}

export const PAY_MESSAGES = {
  chooseMethod: 'Choose a payment method.',
  vpa: 'Enter your UPI ID, like name@bank.',
} as const;

function savedCardLabel(card: SavedCard): string {
  return `${card.network} •••• ${card.last4} (${String(card.expiry_month).padStart(2, '0')}/${String(card.expiry_year).slice(-2)})`;
}

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="chk-field">
      <label htmlFor={id} className="chk-field__label">
        {label}
      </label>
      {children}
    </div>
  );
}

function CardForm({ fields, onChange }: { fields: CardFields; onChange: (fields: CardFields) => void }) {
  const set = (patch: Partial<CardFields>) => onChange({ ...fields, ...patch });
  return (
    <div className="chk-form chk-form--card">
      <Field id="chk-card-number" label="Card number">
        <input id="chk-card-number" className="chk-field__input" inputMode="numeric" autoComplete="cc-number" value={fields.number} onChange={(e) => set({ number: e.target.value })} />
      </Field>
      <div className="chk-form__row">
        <Field id="chk-card-expiry" label="Expiry (MM/YY)">
          <input id="chk-card-expiry" className="chk-field__input" placeholder="MM/YY" autoComplete="cc-exp" value={fields.expiry} onChange={(e) => set({ expiry: e.target.value })} />
        </Field>
        <Field id="chk-card-cvv" label="CVV">
          <input id="chk-card-cvv" className="chk-field__input" type="password" inputMode="numeric" autoComplete="cc-csc" maxLength={4} value={fields.cvv} onChange={(e) => set({ cvv: e.target.value })} />
        </Field>
      </div>
      <Field id="chk-card-name" label="Name on card">
        <input id="chk-card-name" className="chk-field__input" autoComplete="cc-name" value={fields.name} onChange={(e) => set({ name: e.target.value })} />
      </Field>
      <label className="chk-check">
        <input type="checkbox" checked={fields.save} onChange={(e) => set({ save: e.target.checked })} /> Save this card for faster checkout
      </label>
    </div>
  );
}

function TiffinMoneyOption({ balance, toPay, selected, onChoose }: { balance: number; toPay: number | null; selected: boolean; onChoose: () => void }) {
  const short = shortOf(balance, toPay, 'Tiffin Money');
  return (
    <section className="chk-methods__group" aria-label="Tiffin Money">
      <h3 className="chk-methods__title">TIFFIN MONEY</h3>
      <ul className="chk-methods__list">
        <li className={short ? 'chk-method chk-method--disabled' : 'chk-method'}>
          <label className="chk-method__label">
            <input type="radio" name="chk-method" value="tiffin_money" disabled={!!short} checked={!short && selected} onChange={onChoose} /> {`Tiffin Money (${formatPrice(balance)})`}
          </label>
          {short ? <p className="chk-method__note">{short}</p> : null}
        </li>
      </ul>
    </section>
  );
}

export function PaymentStep({
  signedIn,
  toPay,
  blockedReason,
  busy,
  onPay,
}: {
  signedIn: boolean;
  /** Paise, the bill the customer sees; null while it is not known. */
  toPay: number | null;
  /** Why paying is not possible yet (no address, no account…); null when it is. */
  blockedReason: string | null;
  busy: boolean;
  onPay: (payment: PlaceOrderPayment) => void;
}) {
  const methods = useAsync((signal) => edge.paymentMethods({ signal }), []);
  // A failed saved-cards read only hides saved cards: the customer can still type one.
  const saved = useAsync((signal) => (signedIn ? edge.savedCards({ signal }).then((r) => r.cards, () => []) : Promise.resolve([])), [signedIn]);
  // A failed read only hides these ways to pay: the others still work.
  const wallets = useAsync((signal) => (signedIn ? edge.linkedWallets({ signal }).then((r) => r.wallets, () => [] as Wallet[]) : Promise.resolve([] as Wallet[])), [signedIn]);
  const money = useAsync((signal) => (signedIn ? edge.money(undefined, { signal }).then((r) => r.balance, () => null) : Promise.resolve(null)), [signedIn]);
  const linked = (code: string): Wallet | undefined =>
    wallets.status === 'success' ? wallets.data.find((w) => w.linked && w.walletCode.toUpperCase() === code.toUpperCase()) : undefined;
  const moneyBalance = money.status === 'success' ? money.data : null;
  const [choice, setChoice] = useState<Choice | null>(null);
  const [card, setCard] = useState<CardFields>(EMPTY_CARD);
  const [savedCvv, setSavedCvv] = useState('');
  const [vpa, setVpa] = useState('');
  const [vpaCheck, setVpaCheck] = useState<VpaCheck | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  const choose = (next: Choice) => {
    setChoice(next);
    setError(null);
  };

  const verifyVpa = async (): Promise<VpaCheck | null> => {
    const typed = vpa.trim();
    if (!/^[^\s@]+@[^\s@]+$/.test(typed)) {
      setError(PAY_MESSAGES.vpa);
      return null;
    }
    setChecking(true);
    try {
      const check = await edge.verifyVpa(typed);
      setVpaCheck(check);
      setError(check.valid ? null : check.reason || PAY_MESSAGES.vpa);
      return check;
    } catch (failure) {
      setError(customerMessage(failure));
      return null;
    } finally {
      setChecking(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!choice) return setError(PAY_MESSAGES.chooseMethod);
    switch (choice.kind) {
      case 'card': {
        const read = readCard(card);
        if ('error' in read) return setError(read.error);
        setError(null);
        return onPay({ method: 'card', card: read.card });
      }
      case 'saved_card':
        if (!isValidCvv(savedCvv)) return setError(CARD_MESSAGES.cvv);
        setError(null);
        return onPay({ method: 'saved_card', saved_card: { card_reference: choice.card.card_reference, cvv: savedCvv.trim() } });
      case 'upi_collect': {
        const check = vpaCheck && vpaCheck.vpaAddress === vpa.trim().toLowerCase() ? vpaCheck : await verifyVpa();
        if (!check?.valid) return;
        setError(null);
        return onPay({ method: 'upi_collect', vpa: check.vpaAddress });
      }
      case 'cod':
        setError(null);
        return onPay({ method: 'cod' });
      case 'wallet':
        setError(null);
        return onPay({ method: 'wallet', wallet_code: choice.code });
      case 'tiffin_money':
        setError(null);
        return onPay({ method: 'tiffin_money' });
    }
  };

  const renderGroup = (group: PaymentGroup, savedCards: SavedCard[]) => {
    const isCardGroup = group.group_name.toUpperCase() === 'CARD';
    return (
      <section key={group.group_name} className="chk-methods__group" aria-label={group.group_name}>
        <h3 className="chk-methods__title">{group.group_name}</h3>
        <ul className="chk-methods__list">
          {isCardGroup
            ? savedCards.map((saved) => {
                const key = `saved:${saved.card_reference}`;
                const selected = choiceKey(choice) === key;
                return (
                  <li key={key} className="chk-method">
                    <label className="chk-method__label">
                      <input type="radio" name="chk-method" value={key} checked={selected} onChange={() => choose({ kind: 'saved_card', card: saved })} />{' '}
                      {savedCardLabel(saved)}
                    </label>
                    {selected ? (
                      <Field id="chk-saved-cvv" label={`CVV for •••• ${saved.last4}`}>
                        <input id="chk-saved-cvv" className="chk-field__input chk-field__input--short" type="password" inputMode="numeric" maxLength={4} value={savedCvv} onChange={(e) => setSavedCvv(e.target.value)} />
                      </Field>
                    ) : null}
                  </li>
                );
              })
            : null}
          {group.payment_methods.map((method) => {
            const wallet = group.group_name.toUpperCase() === 'WALLET' ? linked(method.payment_code) : undefined;
            if (wallet) {
              const key = method.payment_code.toUpperCase();
              const short = shortOf(wallet.balance, toPay, `balance in ${wallet.name}`);
              const usable = method.enabled && !short;
              return (
                <li key={method.payment_code} className={usable ? 'chk-method' : 'chk-method chk-method--disabled'}>
                  <label className="chk-method__label">
                    <input type="radio" name="chk-method" value={key} disabled={!usable} checked={usable && choiceKey(choice) === key} onChange={() => choose({ kind: 'wallet', code: key })} />{' '}
                    {`${method.name} (${formatPrice(wallet.balance)})`}
                  </label>
                  {short ? <p className="chk-method__note">{short}</p> : null}
                </li>
              );
            }
            const payable = method.enabled && PAYABLE.has(method.payment_code);
            const selected = payable && choiceKey(choice) === method.payment_code;
            return (
              <li key={method.payment_code} className={payable ? 'chk-method' : 'chk-method chk-method--disabled'}>
                <label className="chk-method__label">
                  <input
                    type="radio"
                    name="chk-method"
                    value={method.payment_code}
                    disabled={!payable}
                    checked={selected}
                    onChange={() => choose({ kind: method.payment_code as 'card' | 'upi_collect' | 'cod' })}
                  />{' '}
                  {method.name}
                  {payable ? null : <span className="chk-method__note"> (unavailable)</span>}
                </label>
                {selected && method.payment_code === 'card' ? <CardForm fields={card} onChange={setCard} /> : null}
                {selected && method.payment_code === 'upi_collect' ? (
                  <div className="chk-form chk-form--upi">
                    <Field id="chk-vpa" label="Your UPI ID">
                      <div className="chk-form__inline">
                        <input
                          id="chk-vpa"
                          className="chk-field__input"
                          placeholder="name@bank"
                          autoCapitalize="none"
                          value={vpa}
                          onChange={(e) => {
                            setVpa(e.target.value);
                            setVpaCheck(null);
                          }}
                        />
                        <Button variant="secondary" disabled={checking} onClick={() => void verifyVpa()}>
                          Verify
                        </Button>
                      </div>
                    </Field>
                    {vpaCheck?.valid ? <p className="chk-form__ok">Verified{vpaCheck.name ? `: ${vpaCheck.name}` : ''}</p> : null}
                  </div>
                ) : null}
                {selected && method.payment_code === 'cod' ? <p className="chk-step__hint">Pay with cash when your order arrives.</p> : null}
              </li>
            );
          })}
        </ul>
      </section>
    );
  };

  return (
    <section className="chk-step" aria-label="Payment">
      <h2 className="chk-step__title">Payment</h2>
      <form onSubmit={(event) => void submit(event)} noValidate className="chk-payment">
        <AsyncContent state={methods}>
          {(data) => (
            <div className="chk-methods">
              {moneyBalance !== null ? <TiffinMoneyOption balance={moneyBalance} toPay={toPay} selected={choice?.kind === 'tiffin_money'} onChoose={() => choose({ kind: 'tiffin_money' })} /> : null}
              {knownGroups(data).map((group) => renderGroup(group, saved.status === 'success' ? saved.data : []))}
            </div>
          )}
        </AsyncContent>
        {error ? (
          <p className="chk-field__error" role="alert">
            {error}
          </p>
        ) : null}
        {blockedReason ? <p className="chk-step__hint">{blockedReason}</p> : null}
        <Button type="submit" block disabled={busy || checking || !!blockedReason || toPay === null}>
          {toPay === null ? 'Pay' : `Pay ${formatPrice(toPay)}`}
        </Button>
      </form>
    </section>
  );
}
