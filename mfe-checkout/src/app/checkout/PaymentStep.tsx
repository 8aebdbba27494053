/**
 * Step 3, how to pay: the payment methods the payments service offers (known groups only), with a
 * form for each method checkout can take (card, a saved card, a UPI id, cash on delivery, a
 * wallet, Tiffin Money, pay-later, netbanking), the split-pay box, and the "Pay ₹X" button. A
 * wallet, pay-later or Tiffin Money whose balance (or limit) is below what it would pay is shown but
 * cannot be chosen, with the reason; a wallet or pay-later not linked yet offers linking with the
 * provider's OTP right there (@tiffin/payment-link, the Payments tab's flow). Each method lists the
 * payment offers paying that way can earn. It only gathers the instrument and says which way to pay
 * the bill should be priced for (`onPricingChange`); pricing and placing the order are the page's.
 */
import { customerMessage, edge } from '@tiffin/api-client';
import type {
  NetbankingBank,
  PaymentGroup,
  PaymentMethodOffer,
  PaymentMethodsV2Response,
  PayLater,
  PlaceOrderPayment,
  SavedCard,
  SplitPay,
  VpaCheck,
  Wallet,
} from '@tiffin/contract';
import { AsyncContent, Button, formatPrice, useAsync } from '@tiffin/design-system';
import { OtpLink, payLaterLinkActions, toWallet, walletLinkActions, type LinkableAccount } from '@tiffin/payment-link';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { knownGroups } from '../PaymentMethods';
import { CARD_MESSAGES, EMPTY_CARD, isValidCvv, readCard, type CardFields } from './card';
import { pricingKey, type PaymentPricing } from './payment-pricing';
import './payment-offers.css';

/** Payment codes checkout can pay with as they are; wallets, pay-later and netbanking have rows of their own. */
const PAYABLE = new Set(['card', 'upi_collect', 'cod']);
/** The one pay-later provider the payments service can link (docs/payments.md). */
const PAY_LATER_CODE = 'lazypay';
/** What pay-later reads when its status call fails: not linked. */
const PAY_LATER_UNKNOWN: PayLater = { walletCode: PAY_LATER_CODE, name: 'LazyPay', linked: false, meta: { availableLimit: 0 } };

export type Choice =
  | { kind: 'card' }
  | { kind: 'upi_collect' }
  | { kind: 'cod' }
  | { kind: 'saved_card'; card: SavedCard }
  | { kind: 'wallet'; code: string; name: string }
  | { kind: 'tiffin_money' }
  | { kind: 'paylater'; code: string; name: string }
  | { kind: 'netbanking' };

/** How many of a new card's first digits name its bank and network (its BIN). */
const CARD_BIN_LENGTH = 6;

/**
 * What `cart/calculate` must be told about the chosen way to pay, so its bill is the one place-v2
 * will charge: the same payment code the edge prices a placed order with (a saved card is a card,
 * a wallet its code, pay-later its provider), and a new card's BIN once it is typed.
 */
export function pricingOf(choice: Choice | null, cardNumber: string): PaymentPricing | null {
  if (!choice) return null;
  switch (choice.kind) {
    case 'card': {
      const digits = cardNumber.replace(/\D/g, '');
      return digits.length >= CARD_BIN_LENGTH ? { paymentMethod: 'card', cardBin: digits.slice(0, CARD_BIN_LENGTH) } : { paymentMethod: 'card' };
    }
    case 'saved_card':
      return { paymentMethod: 'card', savedCardReference: choice.card.card_reference };
    case 'wallet':
      return { paymentMethod: choice.code.toUpperCase() };
    case 'paylater':
      return { paymentMethod: choice.code.toLowerCase() };
    default:
      return { paymentMethod: choice.kind };
  }
}

/** The methods Tiffin Money can share a bill with (split pay): every online one. */
const SPLITTABLE = new Set<Choice['kind']>(['card', 'saved_card', 'upi_collect', 'wallet', 'paylater', 'netbanking']);

function choiceKey(choice: Choice | null): string {
  if (!choice) return '';
  if (choice.kind === 'saved_card') return `saved:${choice.card.card_reference}`;
  if (choice.kind === 'wallet') return choice.code.toUpperCase();
  if (choice.kind === 'paylater') return `paylater:${choice.code.toLowerCase()}`;
  return choice.kind;
}

/** The chosen method as the split-pay line names it ("Pay ₹58 by Paytm"). */
function choiceName(choice: Choice, names: Record<string, string>): string {
  switch (choice.kind) {
    case 'saved_card':
      return `card •••• ${choice.card.last4}`;
    case 'wallet':
    case 'paylater':
      return choice.name;
    case 'netbanking':
      return 'Netbanking';
    default:
      return names[choice.kind] ?? choice.kind;
  }
}

/** How much Tiffin Money split pay would use, or null when split pay is not offered for this bill. */
export function splitAmount(split: SplitPay | null | undefined, toPay: number | null): number | null {
  if (!split?.available || toPay === null) return null;
  const balance = split.tiffin_money_balance;
  // A balance that covers the bill pays it whole (Tiffin Money's own row); none is nothing to split.
  return balance > 0 && balance < toPay ? balance : null;
}

/** Why a balance cannot pay the bill, or null when it can (or the bill is not known yet). */
export function shortOf(balance: number, toPay: number | null, what: string): string | null {
  return toPay !== null && balance < toPay ? `Not enough ${what}: ${formatPrice(balance)} for a bill of ${formatPrice(toPay)}` : null;
}

/** The groups as offered: without cash on delivery where no one could collect it, and without a group left empty. */
function offered(groups: PaymentGroup[], cashOnDelivery: boolean): PaymentGroup[] {
  if (cashOnDelivery) return groups;
  return groups
    .map((group) => ({ ...group, payment_methods: group.payment_methods.filter((method) => method.payment_code !== 'cod') }))
    .filter((group) => group.payment_methods.length > 0);
}

export const PAY_MESSAGES = {
  chooseMethod: 'Choose a payment method.',
  vpa: 'Enter your UPI ID, like name@bank.',
  bank: 'Choose your bank.',
  banksUnavailable: 'We could not load the banks. Please choose another way to pay.',
} as const;

/** The payment offers a method's row lists; replies from before offers existed have none. */
function offersByCode(data: PaymentMethodsV2Response): ReadonlyMap<string, PaymentMethodOffer[]> {
  const byCode = new Map<string, PaymentMethodOffer[]>();
  for (const group of data.payment_groups) {
    for (const method of group.payment_methods) {
      const offers = method.offers ?? [];
      if (offers.length > 0) byCode.set(method.payment_code.toLowerCase(), offers);
    }
  }
  return byCode;
}

const NO_OFFERS: ReadonlyMap<string, PaymentMethodOffer[]> = new Map();

function MethodOffers({ offers }: { offers: PaymentMethodOffer[] }) {
  if (offers.length === 0) return null;
  return (
    <ul className="chk-method__offers">
      {offers.map((offer) => (
        <li key={offer.offer_id} className="chk-method__offer" data-testid="method-offer" title={offer.description}>
          {offer.title}
        </li>
      ))}
    </ul>
  );
}

/** Offers listed once each, in their order. */
function uniqueOffers(offers: PaymentMethodOffer[]): PaymentMethodOffer[] {
  const seen = new Set<string>();
  return offers.filter((offer) => !seen.has(offer.offer_id) && !!seen.add(offer.offer_id));
}

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

/** A wallet or pay-later not linked yet: its name, and linking with the provider's OTP. */
function NotLinkedRow({ name, link, offers = [] }: { name: string; link: ReactNode; offers?: PaymentMethodOffer[] }) {
  return (
    <li className="chk-method chk-method--disabled">
      <div className="chk-method__row">
        <span>
          {name} <span className="chk-method__note">(not linked)</span>
        </span>
        {link}
      </div>
      <MethodOffers offers={offers} />
    </li>
  );
}

export function PaymentStep({
  signedIn,
  toPay,
  blockedReason,
  busy,
  onPay,
  cashOnDelivery = true,
  onPricingChange,
  offerMessage = null,
}: {
  signedIn: boolean;
  /** Paise, the bill the customer sees; null while it is not known. */
  toPay: number | null;
  /** Why paying is not possible yet (no address, no account…); null when it is. */
  blockedReason: string | null;
  busy: boolean;
  onPay: (payment: PlaceOrderPayment) => void;
  /** Offer cash on delivery; false when nothing is delivered (a Tiffin One plan), so no one could collect it. */
  cashOnDelivery?: boolean;
  /**
   * The way to pay the bill should now be priced for; called when it changes (for a new card, only
   * when its first 6 digits do), never for typing that leaves the bill as it is.
   */
  onPricingChange?: (pricing: PaymentPricing | null) => void;
  /** What the bill's payment offer takes off ("₹49.90 off with HDFC Bank cards"), shown by the Pay button. */
  offerMessage?: string | null;
}) {
  const methods = useAsync((signal) => edge.paymentMethods({ signal }), []);
  // A failed saved-cards read only hides saved cards: the customer can still type one.
  const saved = useAsync((signal) => (signedIn ? edge.savedCards({ signal }).then((r) => r.cards, () => []) : Promise.resolve([])), [signedIn]);
  // A failed read only hides these ways to pay: the others still work.
  const money = useAsync((signal) => (signedIn ? edge.money(undefined, { signal }).then((r) => r.balance, () => null) : Promise.resolve(null)), [signedIn]);
  // Pay-later's status call; one that fails reads not linked, never an error.
  const payLaterRead = useAsync(
    (signal) => (signedIn ? edge.payLater({ signal }).catch(() => PAY_LATER_UNKNOWN) : Promise.resolve(PAY_LATER_UNKNOWN)),
    [signedIn],
  );
  // The banks, read once; a failed read leaves netbanking listed but unavailable.
  const banks = useAsync((signal) => edge.netbankingBanks({ signal }).then((r) => r.banks, () => null as NetbankingBank[] | null), []);
  /** Wallets and pay-later linked on this page, over what the reads said. */
  const [linkedHere, setLinkedHere] = useState<Record<string, LinkableAccount>>({});
  const [linkError, setLinkError] = useState<string | null>(null);

  const linkedWallet = (code: string): Wallet | undefined => {
    const here = linkedHere[code.toUpperCase()];
    if (here?.linked) return toWallet(here);
    const instruments = methods.status === 'success' ? methods.data.instruments : null;
    return instruments?.wallets.find((w) => w.linked && w.walletCode.toUpperCase() === code.toUpperCase());
  };
  const payLater: LinkableAccount | null = (() => {
    const here = linkedHere[`paylater:${PAY_LATER_CODE}`];
    if (here) return here;
    if (payLaterRead.status !== 'success') return null;
    const read = payLaterRead.data;
    return { code: read.walletCode || PAY_LATER_CODE, name: read.name || 'LazyPay', linked: read.linked, amount: read.meta.availableLimit };
  })();
  const moneyBalance = money.status === 'success' ? money.data : null;
  const methodOffers = methods.status === 'success' ? offersByCode(methods.data) : NO_OFFERS;
  const split = splitAmount(methods.status === 'success' ? methods.data.split_pay : null, toPay);

  const [choice, setChoice] = useState<Choice | null>(null);
  const [card, setCard] = useState<CardFields>(EMPTY_CARD);
  const [savedCvv, setSavedCvv] = useState('');
  const [vpa, setVpa] = useState('');
  const [vpaCheck, setVpaCheck] = useState<VpaCheck | null>(null);
  const [bankCode, setBankCode] = useState('');
  const [useMoney, setUseMoney] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  const pricing = pricingOf(choice, card.number);
  const pricingChanged = useRef(onPricingChange);
  pricingChanged.current = onPricingChange;
  const currentPricing = pricingKey(pricing);
  useEffect(() => {
    pricingChanged.current?.(pricing);
    // The key stands for the pricing: typing past a card's first digits changes nothing here.
  }, [currentPricing]);

  /** Split pay applies to this choice: offered for the bill, ticked, and an online method. */
  const splitting = split !== null && useMoney && (!choice || SPLITTABLE.has(choice.kind));
  /** What the chosen method itself pays: the bill, less Tiffin Money's part when splitting. */
  const methodPays = toPay === null ? null : splitting ? toPay - split! : toPay;

  const choose = (next: Choice) => {
    setChoice(next);
    setError(null);
  };

  const linked = (key: string) => (account: LinkableAccount) => {
    setLinkError(null);
    setLinkedHere((all) => ({ ...all, [key]: account }));
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
    const pay = (payment: PlaceOrderPayment) => {
      setError(null);
      onPay(splitting && SPLITTABLE.has(choice.kind) ? { ...payment, split_with_tiffin_money: true } : payment);
    };
    switch (choice.kind) {
      case 'card': {
        const read = readCard(card);
        if ('error' in read) return setError(read.error);
        return pay({ method: 'card', card: read.card });
      }
      case 'saved_card':
        if (!isValidCvv(savedCvv)) return setError(CARD_MESSAGES.cvv);
        return pay({ method: 'saved_card', saved_card: { card_reference: choice.card.card_reference, cvv: savedCvv.trim() } });
      case 'upi_collect': {
        const check = vpaCheck && vpaCheck.vpaAddress === vpa.trim().toLowerCase() ? vpaCheck : await verifyVpa();
        if (!check?.valid) return;
        return pay({ method: 'upi_collect', vpa: check.vpaAddress });
      }
      case 'cod':
        return pay({ method: 'cod' });
      case 'wallet':
        return pay({ method: 'wallet', wallet_code: choice.code });
      case 'tiffin_money':
        return pay({ method: 'tiffin_money' });
      case 'paylater':
        return pay({ method: 'paylater', paylater_code: choice.code });
      case 'netbanking':
        if (!bankCode) return setError(PAY_MESSAGES.bank);
        return pay({ method: 'netbanking', bank_code: bankCode });
    }
  };

  const renderWallet = (method: PaymentGroup['payment_methods'][number], offers: PaymentMethodOffer[]) => {
    const key = method.payment_code.toUpperCase();
    const wallet = linkedWallet(key);
    if (!wallet) {
      if (!signedIn || !method.enabled) return null;
      return (
        <NotLinkedRow
          key={key}
          name={method.name}
          link={<OtpLink name={method.name} actions={walletLinkActions(key)} onLinked={linked(key)} onError={setLinkError} />}
          offers={offers}
        />
      );
    }
    const short = shortOf(wallet.balance, methodPays, `balance in ${wallet.name}`);
    const usable = method.enabled && !short;
    return (
      <li key={key} className={usable ? 'chk-method' : 'chk-method chk-method--disabled'}>
        <label className="chk-method__label">
          <input type="radio" name="chk-method" value={key} disabled={!usable} checked={usable && choiceKey(choice) === key} onChange={() => choose({ kind: 'wallet', code: key, name: method.name })} />{' '}
          {`${method.name} (${formatPrice(wallet.balance)})`}
        </label>
        <MethodOffers offers={offers} />
        {short ? <p className="chk-method__note">{short}</p> : null}
      </li>
    );
  };

  const renderPayLater = (method: PaymentGroup['payment_methods'][number], offers: PaymentMethodOffer[]) => {
    if (!payLater || !signedIn || !method.enabled) return null;
    const name = payLater.name || method.name;
    if (!payLater.linked) {
      return (
        <NotLinkedRow
          key={method.payment_code}
          name={name}
          link={<OtpLink name={name} actions={payLaterLinkActions(payLater.code)} onLinked={linked(`paylater:${PAY_LATER_CODE}`)} onError={setLinkError} />}
          offers={offers}
        />
      );
    }
    const key = `paylater:${payLater.code.toLowerCase()}`;
    const short = shortOf(payLater.amount, methodPays, `limit in ${name}`);
    return (
      <li key={method.payment_code} className={short ? 'chk-method chk-method--disabled' : 'chk-method'}>
        <label className="chk-method__label">
          <input type="radio" name="chk-method" value={key} disabled={!!short} checked={!short && choiceKey(choice) === key} onChange={() => choose({ kind: 'paylater', code: payLater.code, name })} />{' '}
          {`${name} (${formatPrice(payLater.amount)} available)`}
        </label>
        <MethodOffers offers={offers} />
        {short ? <p className="chk-method__note">{short}</p> : null}
      </li>
    );
  };

  /** Netbanking is one row whatever banks the group lists: the bank is chosen from the banks route. */
  const renderNetbanking = (group: PaymentGroup, offers: PaymentMethodOffer[]) => {
    const bankList = banks.status === 'success' ? banks.data : null;
    const payable = group.payment_methods.some((m) => m.enabled) && !!bankList?.length;
    const selected = payable && choice?.kind === 'netbanking';
    return (
      <li key="netbanking" className={payable ? 'chk-method' : 'chk-method chk-method--disabled'}>
        <label className="chk-method__label">
          <input type="radio" name="chk-method" value="netbanking" disabled={!payable} checked={selected} onChange={() => choose({ kind: 'netbanking' })} /> Netbanking
          {payable ? null : <span className="chk-method__note"> (unavailable)</span>}
        </label>
        <MethodOffers offers={offers} />
        {banks.status === 'success' && bankList === null ? <p className="chk-method__note">{PAY_MESSAGES.banksUnavailable}</p> : null}
        {selected ? (
          <div className="chk-form chk-form--netbanking">
            <Field id="chk-bank" label="Your bank">
              <select id="chk-bank" className="chk-field__input" value={bankCode} onChange={(e) => setBankCode(e.target.value)}>
                <option value="">Choose your bank</option>
                {bankList!.map((bank) => (
                  <option key={bank.bank_code} value={bank.bank_code}>
                    {bank.name}
                  </option>
                ))}
              </select>
            </Field>
            <p className="chk-step__hint">You will pay on your bank&apos;s page, in a new window.</p>
          </div>
        ) : null}
      </li>
    );
  };

  const renderGroup = (group: PaymentGroup, savedCards: SavedCard[], offers: ReadonlyMap<string, PaymentMethodOffer[]>) => {
    const groupName = group.group_name.toUpperCase();
    const offersOf = (code: string) => offers.get(code.toLowerCase()) ?? [];
    const isCardGroup = groupName === 'CARD';
    const isWalletGroup = groupName === 'WALLET' || groupName === 'WALLET_WEB';
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
          {groupName === 'NETBANKING'
            ? renderNetbanking(group, uniqueOffers(group.payment_methods.flatMap((m) => offersOf(m.payment_code))))
            : group.payment_methods.map((method) => {
                if (isWalletGroup) {
                  const row = renderWallet(method, offersOf(method.payment_code));
                  if (row) return row;
                }
                if (groupName === 'PAY_LATER' && method.payment_code.toLowerCase() === PAY_LATER_CODE) {
                  const row = renderPayLater(method, offersOf(method.payment_code));
                  if (row) return row;
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
                    <MethodOffers offers={offersOf(method.payment_code)} />
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

  /** The names get-methods gives the plain methods, for the split-pay line. */
  const methodNames = (data: { payment_groups: PaymentGroup[] }) =>
    Object.fromEntries(data.payment_groups.flatMap((g) => g.payment_methods.map((m) => [m.payment_code, m.name] as const)));

  return (
    <section className="chk-step" aria-label="Payment">
      <h2 className="chk-step__title">Payment</h2>
      <form onSubmit={(event) => void submit(event)} noValidate className="chk-payment">
        <AsyncContent state={methods}>
          {(data) => (
            <>
              <div className="chk-methods">
                {moneyBalance !== null ? <TiffinMoneyOption balance={moneyBalance} toPay={toPay} selected={choice?.kind === 'tiffin_money'} onChoose={() => choose({ kind: 'tiffin_money' })} /> : null}
                {offered(knownGroups(data), cashOnDelivery).map((group) => renderGroup(group, saved.status === 'success' ? saved.data : [], methodOffers))}
              </div>
              {split !== null && (!choice || SPLITTABLE.has(choice.kind)) ? (
                <div className="chk-split">
                  <label className="chk-check">
                    <input type="checkbox" checked={useMoney} onChange={(e) => setUseMoney(e.target.checked)} /> {`Use Tiffin Money (${formatPrice(split)})`}
                  </label>
                  {splitting && choice && methodPays !== null ? <p className="chk-split__rest">{`Pay ${formatPrice(methodPays)} by ${choiceName(choice, methodNames(data))}`}</p> : null}
                </div>
              ) : null}
            </>
          )}
        </AsyncContent>
        {linkError ? (
          <p className="chk-field__error" role="alert">
            {linkError}
          </p>
        ) : null}
        {error ? (
          <p className="chk-field__error" role="alert">
            {error}
          </p>
        ) : null}
        {blockedReason ? <p className="chk-step__hint">{blockedReason}</p> : null}
        {offerMessage ? (
          <p className="chk-offer-applied" data-testid="payment-offer-applied">
            {offerMessage}
          </p>
        ) : null}
        <Button type="submit" block disabled={busy || checking || !!blockedReason || toPay === null}>
          {toPay === null ? 'Pay' : `Pay ${formatPrice(toPay)}`}
        </Button>
      </form>
    </section>
  );
}
