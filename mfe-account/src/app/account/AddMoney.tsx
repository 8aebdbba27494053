/**
 * Topping up a linked wallet from the Payments tab. Each press of ADD after an answer (added, or
 * refused) is a new attempt with a new idempotency key; a press after no answer at all resends the
 * same key with the same amount, so the provider is asked to top up once however often the
 * network fails. Changing the amount starts a new attempt: the edge refuses a key reused with a
 * different body.
 */
import { edge, isApiError } from '@tiffin/api-client';
import { showToast, type Wallet } from '@tiffin/contract';
import { Button, formatPrice } from '@tiffin/design-system';
import { useRef, useState } from 'react';
import { errorMessage } from '../common/errors';

/** A minimum-KYC wallet's monthly load limit, the most one top-up may be (docs/payments.md). */
export const MAX_ADD_MONEY_PAISE = 1_000_000;
export const ADD_MONEY_AMOUNT_MESSAGE = `Enter an amount from ₹1 to ${formatPrice(MAX_ADD_MONEY_PAISE)}.`;

/** Paise for what the customer typed in rupees, or null when it is not an amount we can add. */
export function addMoneyPaise(typed: string): number | null {
  const trimmed = typed.trim();
  if (!/^[0-9]+(\.[0-9]{1,2})?$/.test(trimmed)) return null;
  const paise = Math.round(Number(trimmed) * 100);
  return paise >= 100 && paise <= MAX_ADD_MONEY_PAISE ? paise : null;
}

export function AddMoney({ wallet, onAdded }: { wallet: Wallet; onAdded: (wallet: Wallet) => void }) {
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The attempt that got no answer: its key and the amount it was for. */
  const unanswered = useRef<{ key: string; paise: number } | null>(null);

  const add = async () => {
    const paise = addMoneyPaise(amount);
    if (paise === null) return setProblem(ADD_MONEY_AMOUNT_MESSAGE);
    setProblem(null);
    const key = unanswered.current?.paise === paise ? unanswered.current.key : globalThis.crypto.randomUUID();
    unanswered.current = { key, paise };
    setBusy(true);
    try {
      const topped = await edge.addWalletMoney({ walletCode: wallet.walletCode, amount: paise, idempotency_key: key });
      unanswered.current = null;
      setOpen(false);
      setAmount('');
      onAdded(topped);
      showToast({ text: `${formatPrice(paise)} added to ${wallet.name}.`, status: 'success' });
    } catch (e) {
      // No answer: the top-up may have happened, so the next press resends this key.
      if (!(isApiError(e) && e.kind === 'network')) unanswered.current = null;
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
