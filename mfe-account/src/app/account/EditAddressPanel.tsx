/**
 * The edit-address panel: the shared address form (@tiffin/address-form) in the account's side
 * panel, for adding a new address or editing a saved one from the address book.
 */
import { AddressForm } from '@tiffin/address-form';
import type { Address } from '@tiffin/contract';

export function EditAddressPanel({ address, onSaved, onClose }: { address: Address | null; onSaved: (addresses: Address[], saved: Address) => void; onClose: () => void }) {
  const title = address ? 'Edit address' : 'Save delivery address';
  return (
    <div className="acct-panel">
      <div className="acct-panel__scrim" onClick={onClose} aria-hidden="true" />
      <aside className="acct-panel__body" role="dialog" aria-modal="true" aria-label={title}>
        <button type="button" className="acct-auth__close" aria-label="Close" onClick={onClose}>
          ×
        </button>
        <h2>{title}</h2>
        <AddressForm address={address} onSaved={onSaved} />
      </aside>
    </div>
  );
}
