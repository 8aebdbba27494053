/**
 * Whether a restaurant takes orders now and the spec's words when it does not (the edge's
 * `deliveryState` table in docs/edge-api.md), plus what the menu header prints: the fee message,
 * rating count, distance, the offers strip and the collections panel's links.
 */
import { cuisineNearMeHref, cuisineSlug } from '@tiffin/api-client';
import type { MenuRestaurant } from './menu-types';

type OrderingState = 'OPEN' | 'CLOSED' | 'TEMPORARILY_CLOSED' | 'UNSERVICEABLE';

/** The words shown per state. */
const STATE_COPY: Record<Exclude<OrderingState, 'OPEN'>, { text: string; message: string }> = {
  CLOSED: { text: 'Closed & not delivering', message: 'Restaurant is currently closed' },
  TEMPORARILY_CLOSED: { text: 'Currently not delivering', message: 'Restaurant is currently closed' },
  UNSERVICEABLE: { text: 'Does not deliver', message: 'Sorry, this restaurant does not deliver to this address' },
};

interface OrderingStatus {
  state: OrderingState;
  text: string;
  message: string;
}

/**
 * Whether ADD works, and what the header says when it does not. The edge's `deliveryState` (with
 * its texts) wins; without one the flags decide, first that applies: closed, temporarily closed,
 * not delivering here.
 */
export function orderingStatus(
  r: Pick<MenuRestaurant, 'deliveryState' | 'deliveryStateText' | 'deliveryStateMessage' | 'availability' | 'opened' | 'tmpClosed' | 'unserviceable' | 'sla'>,
): OrderingStatus {
  let state: OrderingState;
  const named = r.deliveryState;
  if (named === 'OPEN' || named === 'CLOSED' || named === 'UNSERVICEABLE' || named === 'TEMPORARILY_CLOSED') state = named;
  else if (r.availability?.opened === false || r.opened === false) state = 'CLOSED';
  else if (r.tmpClosed === true) state = 'TEMPORARILY_CLOSED';
  else if (r.unserviceable === true || r.sla?.serviceability === 'NON_SERVICEABLE') state = 'UNSERVICEABLE';
  else state = 'OPEN';
  if (state === 'OPEN') return { state, text: '', message: '' };
  return {
    state,
    text: r.deliveryStateText?.trim() || STATE_COPY[state].text,
    message: r.deliveryStateMessage?.trim() || STATE_COPY[state].message,
  };
}

/** The delivery fee line ('2.4 kms | Delivery fee will apply'), '' when the edge sends none. */
export function feeMessage(r: Pick<MenuRestaurant, 'feeDetails'>): string {
  return (r.feeDetails?.message ?? '').trim();
}

/** Rating count, '--' when the restaurant has none. */
export function ratingCountText(r: Pick<MenuRestaurant, 'totalRatingsString'>): string {
  return r.totalRatingsString?.trim() || '--';
}

/** Distance in km from the SLA, '' when unknown. */
export function distanceText(r: Pick<MenuRestaurant, 'sla'>): string {
  const km = r.sla?.lastMileTravel;
  return typeof km === 'number' && Number.isFinite(km) && km > 0 ? `${Number(km.toFixed(1))} km` : '';
}

export interface OfferView {
  title: string;
  description: string;
  couponCode: string;
}

/**
 * The offers strip: the restaurant's offers (with coupon codes), else its offer headline. Empty
 * titles are dropped; duplicates keep their first place.
 */
export function offersOf(r: Pick<MenuRestaurant, 'offers' | 'aggregatedDiscountInfo'>): OfferView[] {
  const source: OfferView[] = r.offers.length
    ? r.offers.map((o) => ({ title: o.header, description: o.description, couponCode: o.couponCode }))
    : (r.aggregatedDiscountInfo?.shortDescriptionList ?? []).map((d) => ({ title: d.meta, description: '', couponCode: '' }));
  const seen = new Set<string>();
  const views: OfferView[] = [];
  for (const offer of source) {
    const title = offer.title.trim();
    const couponCode = offer.couponCode.trim();
    const key = `${title}|${couponCode}`;
    if (!title || seen.has(key)) continue;
    seen.add(key);
    views.push({ title, description: offer.description.trim(), couponCode });
  }
  return views;
}

/** The collections panel: one "{cuisine} restaurants near me" page per cuisine. */
export function collectionLinks(r: Pick<MenuRestaurant, 'cuisines'>): Array<{ name: string; href: string }> {
  const links: Array<{ name: string; href: string }> = [];
  for (const cuisine of r.cuisines ?? []) {
    if (cuisineSlug(cuisine)) links.push({ name: `${cuisine} restaurants near you`, href: cuisineNearMeHref(cuisine) });
  }
  return links;
}
