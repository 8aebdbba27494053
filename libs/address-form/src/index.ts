/**
 * @tiffin/address-form — the one form for adding or editing a saved address, shared by every
 * microfrontend that lets a customer save an address (the account's address book, checkout's
 * delivery step) so they can never disagree about fields, checks or wording.
 *
 * - `address-form`: the form state, its checks (worded as the edge words them) and the
 *   POST /api/address body
 * - `AddressForm`: the form itself: place search, "Use current location", the pin map, flat
 *   number, landmark, Home / Work / Other, and the save
 *
 * Its pin map is @tiffin/map's `LazyPinMap`, loaded only when a form opens; page tests stand it in
 * with `@tiffin/map/testing/pin-map`.
 *
 * It owns no page chrome: each caller puts the form in its own panel, dialog or step. It never
 * decides where to deliver; the caller does that with the saved address it is handed.
 */
export { AddressForm, type AddressFormProps } from './AddressForm';
export { formError, formFromAddress, placeFromRecommendation, toAddressInput, type AddressForm as AddressFormState } from './address-form';
