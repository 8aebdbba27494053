/**
 * The menu's own edge calls (docs/edge-api.md: menu/quick, menu/pl, misc/favorite), typed for the
 * menu page. They go through the shared api client, so the envelope, CSRF, retries and errors are
 * the same as every other call.
 */
import { apiClient, isApiError, peekInitialReply, type RequestOptions } from '@tiffin/api-client';
import type { FullMenuResponse } from './menu-types';

interface MenuQuery {
  restaurantId: string;
  lat?: number;
  lng?: number;
}

/** GET menu/pl: the restaurant and its whole menu. */
export function fetchMenu(query: MenuQuery, options?: RequestOptions): Promise<FullMenuResponse> {
  return apiClient.getData<FullMenuResponse>('menu/pl', { restaurantId: query.restaurantId, lat: query.lat, lng: query.lng }, options);
}

/** The reply to `fetchMenu(query)` when the page came with it and it is unused (the edge's initial state). */
export function initialMenu(query: MenuQuery): FullMenuResponse | undefined {
  return peekInitialReply<FullMenuResponse>('menu/pl', { restaurantId: query.restaurantId, lat: query.lat, lng: query.lng });
}

/** GET menu/quick: the same page without the items' add-on and variant groups (first paint). */
export function fetchMenuQuick(query: MenuQuery, options?: RequestOptions): Promise<FullMenuResponse> {
  return apiClient.getData<FullMenuResponse>('menu/quick', { restaurantId: query.restaurantId, lat: query.lat, lng: query.lng }, options);
}

/** POST misc/favorite. */
export function setFavourite(restaurantId: string, favourite: boolean): Promise<{ restaurantId: string; favourite: boolean }> {
  return apiClient.postData<{ restaurantId: string; favourite: boolean }>('misc/favorite', { restaurantId, favourite });
}

/** The edge said the visitor must sign in first (HTTP 401 / statusCode 999). */
export function needsLogin(error: unknown): boolean {
  return isApiError(error) && (error.httpStatus === 401 || error.statusCode === 999);
}
