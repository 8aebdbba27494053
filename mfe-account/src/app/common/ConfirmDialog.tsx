/** An in-page confirmation (deletions ask first). */
import { Button } from '@tiffin/design-system';

export function ConfirmDialog({ message, confirmLabel, onConfirm, onCancel, busy = false }: { message: string; confirmLabel: string; onConfirm: () => void; onCancel: () => void; busy?: boolean }) {
  return (
    <div className="acct-confirm" role="alertdialog" aria-modal="true" aria-label={message}>
      <p className="acct-confirm__message">{message}</p>
      <div className="acct-confirm__actions">
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          CANCEL
        </Button>
        <Button onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </div>
    </div>
  );
}
