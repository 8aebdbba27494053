import type { ToastStatus } from '@tiffin/contract';

/**
 * How one toast looks. Timing and stacking belong to the shell's toast host; this view is shared so
 * a remote that renders an inline toast-like message looks the same.
 */
export function ToastView({ text, status = 'info', onDismiss }: { text: string; status?: ToastStatus; onDismiss?: () => void }) {
  return (
    <div className={`ds-toast ds-toast--${status}`} role={status === 'error' ? 'alert' : 'status'}>
      <span className="ds-toast__text">{text}</span>
      {onDismiss ? (
        <button type="button" className="ds-toast__close" aria-label="Dismiss" onClick={onDismiss}>
          ×
        </button>
      ) : null}
    </div>
  );
}
