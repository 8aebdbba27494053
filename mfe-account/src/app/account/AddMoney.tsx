/**
 * Topping up a linked wallet from the Payments tab. A top-up is paid for: the customer's UPI ID gets
 * a collect request for the amount, and the wallet is credited once they approve it in their UPI
 * app (until then the same request, same key, is sent again every poll interval to follow it).
 * Each press of ADD after an answer (added, or refused) is a new attempt with a new idempotency
 * key; a press after no answer at all resends the same key with the same body, so the customer pays
 * and the provider tops up once however often the network fails. Changing the amount or the UPI ID
 * starts a new attempt: the edge refuses a key reused with a different body.
 */
import { edge, isApiError } from '@tiffin/api-client';
import { showToast, type TopUp, type Wallet } from '@tiffin/contract';
import { Button, formatPrice, parseRupees } from '@tiffin/design-system';
import { useRef, useState } from 'react';
import { errorMessage } from '../common/errors';

/** A minimum-KYC wallet's monthly load limit, the most one top-up may be (docs/payments.md). */
export const MAX_ADD_MONEY_PAISE = 1_000_000;
export const ADD_MONEY_AMOUNT_MESSAGE = `Enter an amount from ₹1 to ${formatPrice(MAX_ADD_MONEY_PAISE)}.`;

/** Paise for what the customer typed in rupees, or null when it is not an amount we can add. */
export function addMoneyPaise(typed: string): number | null {
  const paise = parseRupees(typed);
  return paise !== null && paise >= 100 && paise <= MAX_ADD_MONEY_PAISE ? paise : null;
}

/** How long to wait between asks while the UPI collect waits, when the payment names no interval. */
const DEFAULT_POLL_MS = 1000;
/** A UPI collect expires in minutes and the server fails it then; never ask for ever. */
const MAX_POLLS = 600;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function AddMoney({ wallet, onAdded }: { wallet: Wallet; onAdded: (wallet: Wallet) => void }) {
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState('');
  const [vpa, setVpa] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);
  const [busy, setBusy] = useState(false);
  /** The attempt that got no answer: its key and the body it was for. */
  const unanswered = useRef<{ key: string; paise: number; vpa: string } | null>(null);

  const add = async () => {
    const paise = addMoneyPaise(amount);
    if (paise === null) return setProblem(ADD_MONEY_AMOUNT_MESSAGE);
    const upi = vpa.trim();
    if (!upi) return setProblem('Please enter your UPI ID.');
    setProblem(null);
    const last = unanswered.current;
    const key = last && last.paise === paise && last.vpa === upi ? last.key : globalThis.crypto.randomUUID();
    unanswered.current = { key, paise, vpa: upi };
    setBusy(true);
    try {
      const ask = () => edge.addWalletMoney({ walletCode: wallet.walletCode, amount: paise, vpa: upi, idempotency_key: key });
      let topUp: TopUp = await ask();
      // Paid by approving the collect request in the UPI app: follow it with the same request.
      for (let polls = 0; !topUp.added && topUp.payment?.status === 'PENDING_VBV' && polls < MAX_POLLS; polls++) {
        setWaiting(true);
        await sleep(topUp.payment.poll_interval_ms || DEFAULT_POLL_MS);
        topUp = await ask();
      }
      setWaiting(false);
      unanswered.current = null;
      if (!topUp.added) {
        return setProblem(topUp.payment?.failure_reason || 'The payment did not go through, so nothing was added.');
      }
      setOpen(false);
      setAmount('');
      onAdded(topUp.wallet);
      showToast({ text: `${formatPrice(paise)} added to ${wallet.name}.`, status: 'success' });
    } catch (e) {
      // No answer: the top-up may have happened, so the next press resends this key.
      if (!(isApiError(e) && e.kind === 'network')) unanswered.current = null;
      setWaiting(false);
      setProblem(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  if (!open) {
    return (
      <Button variant="link" onClick={() => setOpen(true)}>
        ADD MONEY
      </Button>
    );
  }
  return (
    <div className="acct-add-money" role="group" aria-label={`Add money to ${wallet.name}`}>
      <label className="acct-auth__field">
        <span>Amount (₹)</span>
        <input name="amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
      </label>
      <label className="acct-auth__field">
        <span>Pay by UPI ID</span>
        <input name="vpa" autoComplete="off" placeholder="name@bank" value={vpa} onChange={(e) => setVpa(e.target.value)} />
      </label>
      {waiting ? <p role="status">Approve the payment request in your UPI app.</p> : null}
      {problem ? (
        <p className="acct-auth__error" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="acct-linkable__actions">
        <Button
          variant="secondary"
          disabled={busy}
          onClick={() => {
            setOpen(false);
            setProblem(null);
          }}
        >
          CANCEL
        </Button>
        <Button disabled={busy} onClick={() => void add()}>
          ADD
        </Button>
      </div>
    </div>
  );
}
