/**
 * The location hints under the header's location bar: the address
 * hint, the different-location hint and the set-location tooltip. When each shows and hides is
 * decided by `hint-rules.ts`; this file only wires it to the device position, timers and page
 * events. They open the location sidebar through `location:open`; none ever writes where to
 * deliver (the address hint only drops the location's "hint not shown yet" flag).
 */
import {
  acknowledgeDefaultAddressHint,
  currentPosition,
  declineDefaultAddress,
  emit,
  getCurrentUser,
  haversineKm,
  subscribeCurrentUser,
  type PageType,
  type UserLocation,
} from '@tiffin/contract';
import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { locationTitle } from '../header/config';
import {
  addressHintApplies,
  addressHintTitle,
  differentLocationHintApplies,
  formatDistanceKm,
  isFarFromLocation,
  markShown,
  scrolledPastThreshold,
  setLocationTooltipApplies,
  shownThisSession,
  SET_LOCATION_TOOLTIP_DELAY_MS,
  TOOLTIP_ACTION_DELAY_MS,
  TOOLTIP_AUTO_HIDE_MS,
  type SessionStore,
} from './hint-rules';
import './hints.css';

/** The tooltip's words. */
export const SET_LOCATION_TEXT = 'Please enter your delivery location to view restaurants.';

function sessionStore(): SessionStore {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** While `active`, any click or a scroll beyond 20 px from where it started calls `dismiss`. */
function useDismissOnInteraction(active: boolean, dismiss: () => void) {
  const dismissRef = useRef(dismiss);
  dismissRef.current = dismiss;
  useEffect(() => {
    if (!active) return;
    const startY = window.scrollY;
    const onScroll = () => {
      if (scrolledPastThreshold(startY, window.scrollY)) dismissRef.current();
    };
    const onClick = () => dismissRef.current();
    window.addEventListener('scroll', onScroll, { passive: true });
    document.addEventListener('click', onClick);
    return () => {
      window.removeEventListener('scroll', onScroll);
      document.removeEventListener('click', onClick);
    };
  }, [active]);
}

function openLocationSidebar() {
  emit('location:open', {});
}

/**
 * A saved address was chosen for the signed-in customer on sign-in (the default address): say
 * which, keep it (OKAY) or change it (CHANGE: opens the sidebar and turns the default down for a
 * day, @tiffin/contract `declineDefaultAddress`). Once shown, the location's flag is dropped so no
 * later visit shows it again.
 */
function AddressHint({ location, onVisibleChange }: { location: UserLocation | null; onVisibleChange?: (visible: boolean) => void }) {
  const [shown, setShown] = useState<UserLocation | null>(null);
  const signedIn = useSyncExternalStore(subscribeCurrentUser, getCurrentUser, getCurrentUser) !== null;
  const id = location?.id;
  const flagged = location?.showUserDefaultAddressHint === true;

  useEffect(() => {
    // Another location (picked in the sidebar, or none) is no longer the default address.
    setShown(null);
    if (!location || !addressHintApplies(location, signedIn, sessionStore())) return;
    markShown('address', sessionStore());
    acknowledgeDefaultAddressHint();
    setShown(location);
    // `location` matters through the saved address it is and its flag.
  }, [id, flagged, signedIn]);

  const visible = shown !== null;
  const notify = useRef(onVisibleChange);
  notify.current = onVisibleChange;
  useEffect(() => notify.current?.(visible), [visible]);

  const dismiss = () => setShown(null);
  useDismissOnInteraction(visible, dismiss);
  if (!shown) return null;

  return (
    <HintCard
      testId="address-hint"
      title={addressHintTitle(shown)}
      onDismiss={dismiss}
      secondary={{
        label: 'CHANGE',
        onClick: () => {
          dismiss();
          declineDefaultAddress();
          openLocationSidebar();
        },
      }}
    >
      <p className="shell-hint__text">{shown.address || shown.mainText}</p>
      <p className="shell-hint__text shell-hint__note">We picked this saved address as your delivery location.</p>
    </HintCard>
  );
}

/** The device is far from the chosen location: keep it, or change it in the sidebar. */
function DifferentLocationHint({ pageType, location, held = false }: { pageType: PageType; location: UserLocation | null; held?: boolean }) {
  const [distanceKm, setDistanceKm] = useState<number | null>(null);
  const lat = location?.lat;
  const lng = location?.lng;

  useEffect(() => {
    setDistanceKm(null);
    // While another hint holds the spot, this one waits (and is not counted as shown).
    if (held || lat === undefined || lng === undefined || !differentLocationHintApplies(pageType, location, sessionStore())) return;
    let cancelled = false;
    // Only with the permission already granted: `currentPosition` never prompts.
    currentPosition().then(
      (device) => {
        const chosen = { lat, lng };
        if (cancelled || !isFarFromLocation(device, chosen) || shownThisSession('different-location', sessionStore())) return;
        markShown('different-location', sessionStore());
        setDistanceKm(haversineKm(device, chosen));
      },
      () => {
        // No permission, no geolocation or no fix: there is nothing to compare, so no hint.
      },
    );
    return () => {
      cancelled = true;
    };
    // `location` matters only through its point; a new object for the same point is the same place.
  }, [pageType, lat, lng, held]);

  const visible = distanceKm !== null;
  const dismiss = () => setDistanceKm(null);
  useDismissOnInteraction(visible, dismiss);
  if (!visible || !location) return null;

  const place = locationTitle(location) ?? 'the delivery location';
  return (
    <HintCard
      testId="different-location-hint"
      title="You seem to be somewhere else"
      onDismiss={dismiss}
      secondary={{
        label: 'CHANGE LOCATION',
        onClick: () => {
          dismiss();
          openLocationSidebar();
        },
      }}
    >
      <p className="shell-hint__text">
        Your device is {formatDistanceKm(distanceKm)} from {place}, the delivery location you chose.
      </p>
    </HintCard>
  );
}

/** A hint's card: title, text, OKAY (dismiss) and one secondary action. */
function HintCard({
  testId,
  title,
  onDismiss,
  secondary,
  children,
}: {
  testId: string;
  title: string;
  onDismiss: () => void;
  secondary: { label: string; onClick: () => void };
  children: ReactNode;
}) {
  return (
    <div className="shell-hint" role="status" data-testid={testId}>
      <span className="shell-hint__arrow" aria-hidden="true" />
      <p className="shell-hint__title">{title}</p>
      {children}
      <div className="shell-hint__actions">
        <button type="button" className="shell-hint__primary" onClick={onDismiss}>
          OKAY
        </button>
        <button type="button" className="shell-hint__secondary" onClick={secondary.onClick}>
          {secondary.label}
        </button>
      </div>
    </div>
  );
}

/** No location yet where the header allows the tooltip: point at the location bar. */
function SetLocationTooltip({ allowed, hasLocation }: { allowed: boolean; hasLocation: boolean }) {
  const [visible, setVisible] = useState(false);
  const actionTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (!setLocationTooltipApplies(allowed, hasLocation, sessionStore())) {
      // Also how it clears once a location exists.
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => {
      markShown('set-location', sessionStore());
      setVisible(true);
    }, SET_LOCATION_TOOLTIP_DELAY_MS);
    return () => clearTimeout(timer);
  }, [allowed, hasLocation]);

  useEffect(() => {
    if (!visible) return;
    const timer = setTimeout(() => setVisible(false), TOOLTIP_AUTO_HIDE_MS);
    return () => clearTimeout(timer);
  }, [visible]);

  useEffect(() => () => clearTimeout(actionTimer.current), []);
  useDismissOnInteraction(visible, () => setVisible(false));
  if (!visible) return null;

  const ok = () => {
    setVisible(false);
    // A tooltip notifies its action 300 ms after hiding.
    clearTimeout(actionTimer.current);
    actionTimer.current = setTimeout(openLocationSidebar, TOOLTIP_ACTION_DELAY_MS);
  };
  return (
    <div className="shell-hint shell-hint--tooltip" role="status" data-testid="set-location-tooltip">
      <span className="shell-hint__arrow" aria-hidden="true" />
      <p className="shell-hint__text">{SET_LOCATION_TEXT}</p>
      <div className="shell-hint__actions">
        <button type="button" className="shell-hint__primary" onClick={ok}>
          OK
        </button>
      </div>
    </div>
  );
}

interface LocationHintsProps {
  pageType: PageType;
  location: UserLocation | null;
  /** The header's `setLocationTooltip` for this page type. */
  tooltipAllowed: boolean;
}

export function LocationHints({ pageType, location, tooltipAllowed }: LocationHintsProps) {
  // One card at a time under the bar: the address hint first, then the different-location hint.
  const [addressHintVisible, setAddressHintVisible] = useState(false);
  return (
    <>
      <AddressHint location={location} onVisibleChange={setAddressHintVisible} />
      <DifferentLocationHint pageType={pageType} location={location} held={addressHintVisible} />
      <SetLocationTooltip allowed={tooltipAllowed} hasLocation={location !== null} />
    </>
  );
}
