/**
 * The Payments tab's UPI IDs, wallets and pay-later. Each works like the saved cards: removing one
 * asks first, the list changes only once the edge agrees, and a failure keeps it and says why in a
 * toast. Linking a wallet or pay-later sends the provider's OTP and links it once the code checks.
 * Which wallets exist is the payments service's word (the WALLET group of get-methods), not a list
 * kept here. It must never show a status call's failure as an error: that wallet reads not linked.
 */
import { edge } from '@tiffin/api-client';
import { showToast, type PayLater, type SavedVpa, type Wallet } from '@tiffin/contract';
import { AsyncContent, Button, formatPrice, useAsync } from '@tiffin/design-system';
import { fromPayLater, fromWallet, OtpLink, payLaterLinkActions, toWallet, walletLinkActions, type LinkableAccount, type LinkActions } from '@tiffin/payment-link';
import { useEffect, useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { errorMessage } from '../common/errors';
import { keep, loadOnce } from '../common/paymentsCache';
import { AddMoney } from './AddMoney';

const DELETE_VPA_CONFIRMATION = 'Are you sure you want to delete this upi address?';
const DELINK_CONFIRMATION = 'Are you sure you want to delink {0} account?';

export function delinkConfirmation(name: string): string {
  return DELINK_CONFIRMATION.replace('{0}', name);
}

// ── UPI IDs ──

function VpaList({ initial }: { initial: SavedVpa[] }) {
  const [vpas, setVpas] = useState(initial);
  const [deleting, setDeleting] = useState<SavedVpa | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => keep('saved-vpas', { vpas }), [vpas]);

  const remove = async (vpa: SavedVpa) => {
    setBusy(true);
    try {
      await edge.deleteVpa(vpa);
      setVpas((list) => list.filter((v) => v.paas_id !== vpa.paas_id));
    } catch (e) {
      showToast({ text: errorMessage(e), status: 'error' });
    } finally {
      // Closed either way: on failure the toast says why and the address stays in the list.
      setDeleting(null);
      setBusy(false);
    }
  };

  return (
    <>
      {vpas.length === 0 ? (
        <p className="acct-muted">You have no saved UPI IDs.</p>
      ) : (
        <ul className="acct-saved-cards">
          {vpas.map((vpa) => (
            <li key={vpa.paas_id} className="acct-saved-card" data-testid="saved-vpa">
              <div className="acct-saved-card__body">
                <strong>{vpa.vpaAddress}</strong>
              </div>
              <Button variant="link" onClick={() => setDeleting(vpa)}>
                DELETE
              </Button>
            </li>
          ))}
        </ul>
      )}
      {deleting ? (
        <ConfirmDialog message={DELETE_VPA_CONFIRMATION} confirmLabel="DELETE" busy={busy} onConfirm={() => void remove(deleting)} onCancel={() => setDeleting(null)} />
      ) : null}
    </>
  );
}

export function SavedVpas() {
  // No abort signal: the load is shared through the cache, and one tab leaving must not cancel it.
  const state = useAsync(() => loadOnce('saved-vpas', () => edge.savedVpas()), []);
  return <AsyncContent state={state}>{({ vpas }) => <VpaList initial={vpas} />}</AsyncContent>;
}

// ── Linked accounts: wallets and pay-later, linked with @tiffin/payment-link's OTP flow ──

function LinkableRow({
  account,
  amountLabel,
  actions,
  delinkAction,
  onChange,
  testId,
  children,
}: {
  account: LinkableAccount;
  amountLabel: string;
  actions: LinkActions;
  delinkAction: () => Promise<unknown>;
  onChange: (next: LinkableAccount) => void;
  testId: string;
  /** What a linked account offers beyond DELINK (a wallet's ADD MONEY). */
  children?: ReactNode;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const toast = (text: string) => showToast({ text, status: 'error' });

  const delink = async () => {
    setBusy(true);
    try {
      await delinkAction();
      onChange({ ...account, linked: false, amount: 0 });
    } catch (e) {
      toast(errorMessage(e));
    } finally {
      // Closed either way: on failure the toast says why and the account stays linked.
      setConfirming(false);
      setBusy(false);
    }
  };

  return (
    <li className="acct-saved-card acct-linkable" data-testid={testId}>
      <div className="acct-saved-card__body">
        <strong>{account.name}</strong>
        {account.linked ? (
          <span>
            {amountLabel}: {formatPrice(account.amount)}
          </span>
        ) : (
          <span className="acct-muted">Not linked</span>
        )}
      </div>
      {account.linked ? (
        <>
          {children}
          <Button variant="link" onClick={() => setConfirming(true)} disabled={busy}>
            DELINK
          </Button>
        </>
      ) : (
        <OtpLink name={account.name} actions={actions} onLinked={onChange} onError={toast} />
      )}
      {confirming ? (
        <ConfirmDialog message={delinkConfirmation(account.name)} confirmLabel="DELINK" busy={busy} onConfirm={() => void delink()} onCancel={() => setConfirming(false)} />
      ) : null}
    </li>
  );
}

// ── Wallets ──

/** The payment groups that list wallets; get-methods names them either way. */
const WALLET_GROUPS = new Set(['WALLET', 'WALLET_WEB']);

const sameCode = (a: string, b: string) => a.toUpperCase() === b.toUpperCase();

/**
 * Every wallet get-methods offers, each linked (with its balance) when linked-wallets says so. When
 * linked-wallets fails every wallet reads not linked, and the answer is not kept, so the next visit
 * asks again.
 */
async function loadWallets(): Promise<{ wallets: Wallet[]; complete: boolean }> {
  const [methods, linked] = await Promise.all([
    edge.paymentMethods(),
    edge.linkedWallets().then(
      ({ wallets }) => wallets,
      () => null,
    ),
  ]);
  const wallets: Wallet[] = [];
  for (const group of methods.payment_groups) {
    if (!WALLET_GROUPS.has(group.group_name.toUpperCase())) continue;
    for (const method of group.payment_methods) {
      if (wallets.some((w) => sameCode(w.walletCode, method.payment_code))) continue;
      const found = linked?.find((w) => sameCode(w.walletCode, method.payment_code));
      wallets.push(found ?? { walletCode: method.payment_code, name: method.name, linked: false, balance: 0 });
    }
  }
  // A linked wallet checkout no longer offers still has to be delinkable.
  for (const wallet of linked ?? []) {
    if (!wallets.some((w) => sameCode(w.walletCode, wallet.walletCode))) wallets.push(wallet);
  }
  return { wallets, complete: linked !== null };
}

function WalletList({ initial, complete }: { initial: Wallet[]; complete: boolean }) {
  const [wallets, setWallets] = useState(initial);

  // A list built without linked-wallets's answer is a guess: it is shown, never kept.
  useEffect(() => {
    if (complete) keep('wallets', { wallets, complete });
  }, [wallets, complete]);

  if (wallets.length === 0) return <p className="acct-muted">No wallets can be linked right now.</p>;

  const update = (next: LinkableAccount) => setWallets((list) => list.map((w) => (sameCode(w.walletCode, next.code) ? toWallet(next) : w)));

  return (
    <ul className="acct-saved-cards">
      {wallets.map((wallet) => {
        const code = wallet.walletCode;
        return (
          <LinkableRow key={code} account={fromWallet(wallet)} amountLabel="Balance" actions={walletLinkActions(code)} delinkAction={() => edge.delinkWallet(code)} onChange={update} testId="wallet">
            <AddMoney wallet={wallet} onAdded={(next) => update(fromWallet(next))} />
          </LinkableRow>
        );
      })}
    </ul>
  );
}

export function Wallets() {
  const state = useAsync(() => loadOnce('wallets', loadWallets, { keepIf: (answer) => answer.complete }), []);
  return <AsyncContent state={state}>{({ wallets, complete }) => <WalletList initial={wallets} complete={complete} />}</AsyncContent>;
}

// ── Pay Later ──

/** What pay-later reads when its status call fails: not linked, under a plain name. */
const PAY_LATER_UNKNOWN: PayLater = { walletCode: '', name: 'Pay Later', linked: false, meta: { availableLimit: 0 } };

function PayLaterAccount({ initial }: { initial: PayLater }) {
  const [account, setAccount] = useState(fromPayLater(initial));

  // The stand-in for a failed status call has no code: it is shown, never kept.
  useEffect(() => {
    if (account.code) keep<PayLater>('pay-later', { walletCode: account.code, name: account.name, linked: account.linked, meta: { availableLimit: account.amount } });
  }, [account]);

  return (
    <ul className="acct-saved-cards">
      <LinkableRow account={account} amountLabel="Available limit" actions={payLaterLinkActions(account.code)} delinkAction={() => edge.delinkPayLater()} onChange={setAccount} testId="pay-later" />
    </ul>
  );
}

export function PayLaterSection() {
  // A failed status call reads not linked; it is not kept, so the next visit asks again.
  const state = useAsync(() => loadOnce('pay-later', () => edge.payLater()).catch(() => PAY_LATER_UNKNOWN), []);
  return <AsyncContent state={state}>{(payLater) => <PayLaterAccount initial={payLater} />}</AsyncContent>;
}
