/**
 * Typed calls of the foundation slice (docs/edge-api.md "Calls in the foundation slice"). Paths are
 * the spec's; the client adds `/api/`. Every call resolves with the envelope's `data` or rejects
 * with an `ApiError`.
 */
import type {
  AddressRecommendation,
  Cart,
  CartUpdateRequest,
  CitiesResponse,
  ListingResponse,
  MenuResponse,
  OrdersResponse,
  PaymentMethodsResponse,
  PlaceSuggestion,
  SuperPlansResponse,
  SupportResponse,
} from '@tiffin/contract';
import type { ApiClient, RequestOptions } from './client';

export type ListingPageType =
  | 'DESKTOP_WEB_LISTING'
  | 'DESKTOP_COLLECTION_LISTING'
  | 'COLLECTION_LISTING'
  | 'DESKTOP_SEE_ALL_LISTING';

export function createEdgeCalls(client: ApiClient) {
  return {
    cities: (options?: RequestOptions) => client.getData<CitiesResponse>('misc/cities', undefined, options),

    placeAutocomplete: (input: string, options?: RequestOptions) =>
      client.getData<PlaceSuggestion[]>('misc/place-autocomplete', { input, types: '' }, options),

    addressRecommend: (query: { placeId: string } | { lat: number; lng: number }, options?: RequestOptions) =>
      client.getData<AddressRecommendation[]>(
        'misc/address-recommend',
        'placeId' in query ? { place_id: query.placeId } : { latlng: `${query.lat},${query.lng}` },
        options,
      ),

    restaurants: (
      query: { lat: number; lng: number; offset?: number; pageType?: ListingPageType; collection?: string },
      options?: RequestOptions,
    ) =>
      client.getData<ListingResponse>(
        'restaurants/list/v5',
        {
          lat: query.lat,
          lng: query.lng,
          collection: query.collection,
          page_type: query.pageType ?? 'DESKTOP_WEB_LISTING',
          offset: query.offset ?? 0,
        },
        options,
      ),

    menu: (query: { restaurantId: string; lat?: number; lng?: number }, options?: RequestOptions) =>
      client.getData<MenuResponse>('menu/pl', { restaurantId: query.restaurantId, lat: query.lat, lng: query.lng }, options),

    cart: (options?: RequestOptions) => client.getData<Cart>('cart', undefined, { ...options, family: 'cart' }),

    updateCart: (update: CartUpdateRequest, options?: RequestOptions) =>
      client.postData<Cart>('cart', update, { ...options, family: 'cart' }),

    paymentMethods: (options?: RequestOptions) => client.getData<PaymentMethodsResponse>('payment/get-methods', undefined, options),

    orders: (options?: RequestOptions) => client.getData<OrdersResponse>('order/all', undefined, options),

    superPlans: (options?: RequestOptions) => client.getData<SuperPlansResponse>('super/plans', undefined, options),

    support: (options?: RequestOptions) => client.getData<SupportResponse>('support', undefined, options),
  };
}

export type EdgeCalls = ReturnType<typeof createEdgeCalls>;
