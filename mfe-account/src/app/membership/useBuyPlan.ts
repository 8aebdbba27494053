/**
 * Buying a Tiffin One plan, up to its checkout: a guest is asked to log in first (and the purchase
 * goes on once they have); then the membership service says whether the plan can be bought where
 * the customer is (plans are sold city by city), the plan goes into the cart and the customer goes
 * to /checkout/super. A plan not sold in the customer's city can be asked for ("notify me").
 *
 * Whether a plan can be bought is the membership service's word, and its price the cart's: this
 * only asks and follows the answers.
 */
import { customerMessage, edge } from '@tiffin/api-client';
import { fetchCart } from '@tiffin/cart-store';
import {
  emit,
  getCurrentUser,
  getUserLocation,
  hasLatLng,
  navigate,
  subscribeCurrentUser,
  type SuperAvailability,
  type SuperNotification,
} from '@tiffin/contract';
import { useEffect, useRef, useState } from 'react';

export const MEMBERSHIP_CHECKOUT = '/checkout/super';

export type BuyState =
  | { kind: 'idle' }
  /** Asking whether it can be bought, or putting it in the cart. */
  | { kind: 'busy'; planId: string }
  /** The membership service said no, and why (not in this city, a longer plan runs, withdrawn). */
  | { kind: 'refused'; planId: string; availability: SuperAvailability }
  /** A "notify me" request is kept (now, or from before). */
  | { kind: 'notified'; planId: string; notification: SuperNotification | null; cityName: string }
  | { kind: 'failed'; planId: string; message: string };

function deliveryPoint(): { lat: number; lng: number } | null {
  const location = getUserLocation();
  return hasLatLng(location) ? { lat: location.lat, lng: location.lng } : null;
}

export function useBuyPlan() {
  const [state, setState] = useState<BuyState>({ kind: 'idle' });
  /** The plan a guest chose before logging in: bought as soon as they have. */
  const waitingForLogin = useRef<string | null>(null);
  const mounted = useRef(true);

  const safeSet = (next: BuyState) => {
    if (mounted.current) setState(next);
  };

  const askToLogIn = (planId: string) => {
    waitingForLogin.current = planId;
    safeSet({ kind: 'idle' });
    emit('auth:open', { mode: 'login' });
  };

  const buy = async (planId: string) => {
    if (!getCurrentUser()) return askToLogIn(planId);
    waitingForLogin.current = null;
    safeSet({ kind: 'busy', planId });
    try {
      const availability = await edge.superAvailability(planId, deliveryPoint());
      if (!availability.available) {
        if (availability.reason === 'SIGN_IN') return askToLogIn(planId);
        if (availability.reason === 'NOT_IN_CITY' && availability.notifyRequested) {
          return safeSet({ kind: 'notified', planId, notification: null, cityName: availability.cityName });
        }
        return safeSet({ kind: 'refused', planId, availability });
      }
      await edge.addSubscriptionToCart(planId);
      // The cart store (and the header's badge) learn of the plan before checkout reads it.
      await fetchCart({ force: true }).catch(() => {});
      if (mounted.current) navigate(MEMBERSHIP_CHECKOUT);
    } catch (failure) {
      safeSet({ kind: 'failed', planId, message: customerMessage(failure) });
    }
  };

  const notify = async (planId: string) => {
    const point = deliveryPoint();
    if (!point) return;
    safeSet({ kind: 'busy', planId });
    try {
      const { notification } = await edge.notifySuper(planId, point);
      safeSet({ kind: 'notified', planId, notification, cityName: notification.cityName });
    } catch (failure) {
      safeSet({ kind: 'failed', planId, message: customerMessage(failure) });
    }
  };

  useEffect(() => {
    mounted.current = true;
    const off = subscribeCurrentUser(() => {
      const planId = waitingForLogin.current;
      if (planId && getCurrentUser()) void buy(planId);
    });
    return () => {
      mounted.current = false;
      off();
    };
  }, []);

  return { state, buy: (planId: string) => void buy(planId), notify: (planId: string) => void notify(planId) };
}
