import { Button } from '@tiffin/design-system';
import { useEffect, useReducer } from 'react';
import { offlineReducer, RECONNECT_BANNER_MS } from './offline';

export function OfflineBanner({ reload = () => window.location.reload() }: { reload?: () => void }) {
  const [state, dispatch] = useReducer(offlineReducer, undefined, () => (navigator.onLine === false ? 'offline' : 'hidden'));

  useEffect(() => {
    const offline = () => dispatch('offline');
    const online = () => dispatch('online');
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
    };
  }, []);

  useEffect(() => {
    if (state !== 'reconnected') return;
    const timer = setTimeout(() => dispatch('timeout'), RECONNECT_BANNER_MS);
    return () => clearTimeout(timer);
  }, [state]);

  if (state === 'hidden') return null;
  if (state === 'offline') {
    return (
      <div className="shell-offline shell-offline--down" role="alert">
        <strong>Connection Error</strong> Please check your internet connection and try again.
      </div>
    );
  }
  return (
    <div className="shell-offline shell-offline--back" role="status">
      <strong>Connection Established</strong> Please try refreshing the page now.
      <Button variant="secondary" onClick={reload}>
        Retry
      </Button>
    </div>
  );
}
