/**
 * What a restaurant card and the menu header print, built on the design
 * system's formatters. Pure: every rule is unit-tested.
 */
import type { Restaurant } from '@tiffin/contract';
import { formatDeliveryTime, formatPrice, formatRating } from '@tiffin/design-system';

/** One decimal; '--' when there is no rating (null, zero, or the edge's "--" string). */
export function ratingText(restaurant: Pick<Restaurant, 'avgRating' | 'avgRatingString'>): string {
  return formatRating(restaurant.avgRating ?? restaurant.avgRatingString);
}

/** 'min-max MINS', else the edge's own SLA string, else nothing. */
export function deliveryTimeText(restaurant: Pick<Restaurant, 'sla'>): string {
  const sla = restaurant.sla;
  if (!sla) return '';
  if (Number.isFinite(sla.minDeliveryTime) && Number.isFinite(sla.maxDeliveryTime) && sla.maxDeliveryTime > 0) {
    return formatDeliveryTime(sla.minDeliveryTime, sla.maxDeliveryTime);
  }
  return sla.slaString ?? '';
}

/** Paise shown as rupees with 'FOR TWO', e.g. 40000 → '₹400 FOR TWO'; nothing for a bad amount. */
export function costForTwoText(costForTwo: number | null | undefined): string {
  if (typeof costForTwo !== 'number' || !Number.isSafeInteger(costForTwo) || costForTwo <= 0) return '';
  return `${formatPrice(costForTwo)} FOR TWO`;
}

/** The first offer line (e.g. '20% OFF UPTO ₹100'), if any. */
export function offerText(restaurant: Pick<Restaurant, 'aggregatedDiscountInfo'>): string | null {
  const meta = restaurant.aggregatedDiscountInfo?.shortDescriptionList?.find((d) => d.meta?.trim())?.meta;
  return meta?.trim() || null;
}

export function isOpen(restaurant: Pick<Restaurant, 'availability'>): boolean {
  return restaurant.availability?.opened !== false;
}

/** Area then locality, e.g. 'Koramangala, 5th Block'. */
export function areaText(restaurant: Pick<Restaurant, 'areaName' | 'locality'>): string {
  return [restaurant.areaName, restaurant.locality].filter((part) => part && part.trim()).join(', ');
}

