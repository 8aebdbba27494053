/**
 * The tracking page's rules, apart from the page: how often to ask again, which words to show
 * under the status, the restaurant's phone number, and what the map is asked to draw. Everything
 * here reads one `Tracking` snapshot and decides nothing the snapshot already says.
 */
import type { GeoPoint, Tracking } from '@tiffin/contract';
import type { TrackingMapProps } from '@tiffin/map';

/** How often to ask when the snapshot names no interval. */
export const DEFAULT_POLL_MS = 30_000;
/** An interval of 0 or less means the order is final; should anything still be polling, it asks this seldom. */
export const FINAL_POLL_MS = 60_000;

export const WAITING_MESSAGE = 'We are waiting for the restaurant to confirm your order';

/** The status tag the tracking service gives a placed order the restaurant has not confirmed yet. */
const RECEIVED_TAG = 'Order Received';

/** Milliseconds until the next poll: the snapshot's seconds, 30 s without one, 60 s for 0 or less. */
export function pollIntervalMs(tracking: { configuration?: { polling_interval_seconds?: number } | null } | null): number {
  const seconds = tracking?.configuration?.polling_interval_seconds;
  if (typeof seconds !== 'number' || Number.isNaN(seconds)) return DEFAULT_POLL_MS;
  if (seconds <= 0) return FINAL_POLL_MS;
  return seconds * 1000;
}

/**
 * The line under the status: the first message's body, else for an order the restaurant has not
 * confirmed yet the waiting line, else the status message (which may be empty).
 */
export function statusLine(tracking: Tracking): string {
  const details = tracking.order_status_details;
  const body = details.messages[0]?.body.trim() ?? '';
  if (body) return body;
  if (details.status_tag_text === RECEIVED_TAG || tracking.order_status === 'PLACED') return WAITING_MESSAGE;
  return details.status_message;
}

export function isCancelled(tracking: Tracking): boolean {
  return tracking.order_status === 'CANCELLED';
}

/**
 * The restaurant's number from the call link (`/call?phoneNumber=%2B918041234567` →
 * `+918041234567`), or null when the link has none; only digits and a leading + are kept, so the
 * `tel:` link can never carry anything else.
 */
export function restaurantPhone(tracking: Tracking): string | null {
  const link = tracking.order_status_details.delivery_instruction_details?.secondary_cta_link;
  if (!link) return null;
  let raw: string | null;
  try {
    raw = new URL(link, 'https://tiffin.invalid').searchParams.get('phoneNumber');
  } catch {
    return null;
  }
  const digits = (raw ?? '').replace(/[^\d+]/g, '').replace(/(?!^)\+/g, '');
  return /\d{3,}/.test(digits) ? digits : null;
}

const point = (p: GeoPoint) => ({ lat: p.latitude, lng: p.longitude });

/** What the map draws for a snapshot, or null when the snapshot says there is no map to show. */
export function trackingMap(tracking: Tracking): Omit<TrackingMapProps, 'tiles'> | null {
  const map = tracking.map_details;
  if (!map.show_map) return null;
  return {
    restaurant: { point: point(map.source), name: tracking.restaurant_name },
    destination: point(map.destination),
    rider: map.rider ? { point: point(map.rider.location), name: map.rider.marker_annotation || 'Rider' } : null,
    route: map.show_polyline ? map.waypoints.map(point) : [],
    connector: map.show_connector,
  };
}
