/**
 * Renders the toasts any app asks for with @tiffin/contract `showToast`. Each toast hides after
 * its duration (default 4000 ms; negative: only when dismissed). At most three are stacked.
 */
import { on, toastHideDelay, type TiffinEventMap } from '@tiffin/contract';
import { ToastView } from '@tiffin/design-system';
import { useCallback, useEffect, useState } from 'react';

type Toast = TiffinEventMap['toast:show'];

const MAX_TOASTS = 3;

function TimedToast({ toast, onHide }: { toast: Toast; onHide: (id: string) => void }) {
  useEffect(() => {
    const delay = toastHideDelay(toast.duration);
    if (delay === null) return;
    const timer = setTimeout(() => onHide(toast.id), delay);
    return () => clearTimeout(timer);
  }, [toast, onHide]);
  return <ToastView text={toast.text} status={toast.status} onDismiss={() => onHide(toast.id)} />;
}

export function ToastHost() {
  const [toasts, setToasts] = useState<Toast[]>([]);
  useEffect(() => on('toast:show', (toast) => setToasts((list) => [...list, toast].slice(-MAX_TOASTS))), []);
  const hide = useCallback((id: string) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  return (
    <div className="shell-toasts" aria-live="polite">
      {toasts.map((toast) => (
        <TimedToast key={toast.id} toast={toast} onHide={hide} />
      ))}
    </div>
  );
}
