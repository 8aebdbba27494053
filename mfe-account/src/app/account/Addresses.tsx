/**
 * Manage addresses: the saved addresses with their annotation icons, add and
 * edit in the edit-address panel, delete after the spec's confirmation, and "Deliver here", which
 * makes an address the delivery location (@tiffin/contract `setUserLocation`).
 */
import { edge } from '@tiffin/api-client';
import { addressToLocation, annotationOf, setUserLocation, showToast, type Address } from '@tiffin/contract';
import { AsyncContent, Button, ErrorState, useAsync } from '@tiffin/design-system';
import { useState } from 'react';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { errorMessage } from '../common/errors';
import { EditAddressPanel } from './EditAddressPanel';

const DELETE_ADDRESS_CONFIRMATION = 'Are you sure you want to delete this address?';

const ANNOTATION_LABELS = { HOME: 'Home', WORK: 'Work', OTHER: 'Other' } as const;
const ANNOTATION_ICONS = { HOME: '⌂', WORK: '▣', OTHER: '⚲' } as const;

function AddressList({ initial }: { initial: Address[] }) {
  const [addresses, setAddresses] = useState(initial);
  const [editing, setEditing] = useState<Address | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Address | null>(null);
  const [busy, setBusy] = useState(false);

  const remove = async (address: Address) => {
    setBusy(true);
    try {
      const reply = await edge.deleteAddress(address.id);
      setAddresses(reply.addresses);
      setDeleting(null);
    } catch (e) {
      showToast({ text: errorMessage(e), status: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const deliverHere = (address: Address) => {
    setUserLocation(addressToLocation(address));
    showToast({ text: `Delivering to ${ANNOTATION_LABELS[annotationOf(address)]}: ${address.area || address.address}`, status: 'success' });
  };

  return (
    <>
      {addresses.length === 0 ? (
        <ErrorState role="region" title="Can't find a door to knock" message="You don't have an address to deliver." />
      ) : (
        <ul className="acct-addresses">
          {addresses.map((address) => {
            const kind = annotationOf(address);
            return (
              <li key={address.id} className="acct-address" data-testid="address" data-annotation={kind}>
                <span className={`acct-address__icon acct-address__icon--${kind.toLowerCase()}`} aria-hidden="true">
                  {ANNOTATION_ICONS[kind]}
                </span>
                <div className="acct-address__body">
                  <h3 className="acct-address__title">{ANNOTATION_LABELS[kind]}</h3>
                  <p className="acct-address__text">{address.address}</p>
                  {address.landmark ? <p className="acct-muted">Landmark: {address.landmark}</p> : null}
                  <div className="acct-address__actions">
                    <Button variant="link" onClick={() => setEditing(address)}>
                      EDIT
                    </Button>
                    <Button variant="link" onClick={() => setDeleting(address)}>
                      DELETE
                    </Button>
                    <Button variant="link" onClick={() => deliverHere(address)}>
                      DELIVER HERE
                    </Button>
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Button onClick={() => setEditing('new')}>ADD NEW ADDRESS</Button>
      {deleting ? (
        <ConfirmDialog message={DELETE_ADDRESS_CONFIRMATION} confirmLabel="DELETE" busy={busy} onConfirm={() => void remove(deleting)} onCancel={() => setDeleting(null)} />
      ) : null}
      {editing ? (
        <EditAddressPanel
          address={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(next) => {
            setAddresses(next);
            setEditing(null);
          }}
        />
      ) : null}
    </>
  );
}

export function Addresses() {
  const state = useAsync((signal) => edge.addresses({ signal }), []);
  return <AsyncContent state={state}>{({ addresses }) => <AddressList initial={addresses} />}</AsyncContent>;
}
