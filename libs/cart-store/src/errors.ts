/**
 * Thrown (as a rejection) by `addItem` when the cart holds another restaurant's items. The menu
 * asks the customer whether to start afresh and then calls `replaceCart`.
 */
export class DifferentRestaurantError extends Error {
  override readonly name = 'DifferentRestaurantError';
  readonly currentRestaurantId: string;
  readonly currentRestaurantName: string;

  constructor(currentRestaurantId: string, currentRestaurantName: string, requestedRestaurantId: string) {
    super(`The cart holds items from ${currentRestaurantName || `restaurant ${currentRestaurantId}`}, not restaurant ${requestedRestaurantId}.`);
    this.currentRestaurantId = currentRestaurantId;
    this.currentRestaurantName = currentRestaurantName;
  }
}

/** Duck-typed as well, in case two copies of this package ever end up on one page. */
export function isDifferentRestaurantError(error: unknown): error is DifferentRestaurantError {
  return error instanceof DifferentRestaurantError || (error as { name?: unknown } | null)?.name === 'DifferentRestaurantError';
}
