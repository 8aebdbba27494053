/**
 * "Items already in cart" (one restaurant per cart): shown when an ADD would put a
 * second restaurant in the cart. "No" keeps the cart; "Yes, start afresh" replaces it. The menu
 * and the search page ask the same question through this one dialog.
 */
import { Button } from '@tiffin/design-system';
import { Dialog } from './Dialog';

export function ReplaceCartDialog({ currentRestaurantName, onKeep, onReplace }: { currentRestaurantName: string | undefined; onKeep: () => void; onReplace: () => void }) {
  return (
    <Dialog
      title="Items already in cart"
      role="alertdialog"
      onClose={onKeep}
      testId="replace-cart-dialog"
      footer={
        <div className="disc-confirm__actions">
          <Button variant="secondary" onClick={onKeep}>
            No
          </Button>
          <Button data-testid="replace-cart-confirm" onClick={onReplace}>
            Yes, start afresh
          </Button>
        </div>
      }
    >
      <p className="disc-confirm__text">
        Your cart contains items from {currentRestaurantName || 'another restaurant'}. Do you want to discard the selection and add items from this
        restaurant?
      </p>
    </Dialog>
  );
}
