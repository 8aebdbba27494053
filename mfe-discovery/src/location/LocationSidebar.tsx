/**
 * mfe_discovery/LocationSidebar: where to deliver, opened by the shell on
 * `location:open` (the header's location bar, the location hints). The shell owns `open`.
 *
 * Three ways to choose: type a place (the shared `PlaceSearch`), the device position (only with
 * the permission already granted, `@tiffin/contract` geolocation), or, for a signed-in customer,
 * one of their saved addresses (the location then carries the address's id and annotation).
 * Every choice goes through `setUserLocation` (cookie `userLocation` and `location:changed`) and
 * closes the sidebar. It is the shared dialog (`common/Dialog`) laid out as a side panel, so focus
 * moves in on opening, stays inside with Tab, returns to the opener on closing, and Escape or the
 * close button closes it.
 */
import { edge } from '@tiffin/api-client';
import {
  addressToLocation,
  annotationOf,
  getCurrentUser,
  setUserLocation,
  subscribeCurrentUser,
  type Address,
  type LocationSidebarProps,
} from '@tiffin/contract';
import { Button, MfeRoot, Skeleton, useAsync } from '@tiffin/design-system';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { Dialog } from '../common/Dialog';
import '../common/common.css';
import { PlaceSearch } from './PlaceSearch';
import './location.css';

const ANNOTATION_LABELS = { HOME: 'Home', WORK: 'Work', OTHER: 'Other' } as const;

/** A saved address is usable for delivery only when `delivery_valid` equals 1. */
function isDeliverable(address: Pick<Address, 'delivery_valid'>): boolean {
  return address.delivery_valid === 1;
}

function SavedAddresses({ onChosen }: { onChosen: () => void }) {
  const state = useAsync((signal) => edge.addresses({ signal }), []);

  const pick = (address: Address) => {
    setUserLocation(addressToLocation(address));
    onChosen();
  };

  let body;
  if (state.status === 'loading') {
    body = <Skeleton height={64} />;
  } else if (state.status === 'error') {
    body = (
      <p className="disc-locate__message" role="alert">
        Oops! Something went wrong.{' '}
        <Button variant="link" onClick={state.reload}>
          Retry
        </Button>
      </p>
    );
  } else if (state.data.addresses.length === 0) {
    body = <p className="disc-location-sidebar__line">No saved addresses yet.</p>;
  } else {
    body = (
      <ul className="disc-location-sidebar__addresses">
        {state.data.addresses.map((address) => {
          const deliverable = isDeliverable(address);
          return (
            <li key={address.id}>
              <button
                type="button"
                className="disc-location-sidebar__address"
                data-testid="saved-address"
                disabled={!deliverable}
                onClick={() => pick(address)}
              >
                <span className="disc-location-sidebar__annotation">{ANNOTATION_LABELS[annotationOf(address)]}</span>
                <span className="disc-location-sidebar__line">{address.address}</span>
                {deliverable ? null : <span className="disc-location-sidebar__note">Sorry! We don't serve at your location currently.</span>}
              </button>
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <section className="disc-location-sidebar__saved" aria-labelledby="disc-location-saved-title">
      <h3 id="disc-location-saved-title" className="disc-location-sidebar__saved-title">
        Saved addresses
      </h3>
      {body}
    </section>
  );
}

export default function LocationSidebar({ open, onClose }: LocationSidebarProps) {
  const user = useSyncExternalStore(subscribeCurrentUser, getCurrentUser, getCurrentUser);
  const inputRef = useRef<HTMLInputElement>(null);

  // The dialog focuses its first control (the close button) when it mounts; this effect runs after
  // the dialog's, so the search field is what the visitor types into at once.
  useEffect(() => {
    if (open) inputRef.current?.focus();
  }, [open]);

  return (
    <MfeRoot mfe="mfe-discovery" version={__MFE_VERSION__}>
      {open ? (
        <Dialog title="Choose a delivery location" onClose={onClose} className="disc-location-sidebar" testId="location-sidebar">
          <PlaceSearch variant="panel" inputRef={inputRef} onChosen={onClose} />
          {user ? <SavedAddresses onChosen={onClose} /> : null}
        </Dialog>
      ) : null}
    </MfeRoot>
  );
}
