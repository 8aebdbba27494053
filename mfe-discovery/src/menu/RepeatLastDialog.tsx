/**
 * "Repeat last used customisation?": asked when + is tapped on a customised dish
 * that is already in the cart. "Repeat last" adds one more unit with the same choices (the same
 * cart key, so the line's quantity goes up); "I'll choose" opens the customisation modal.
 */
import type { CartSelection } from '@tiffin/cart-store';
import { Button } from '@tiffin/design-system';
import { Dialog } from '../common/Dialog';
import { customisationSummary, fromSelection } from './customisation';
import type { MenuItemFull } from './menu-types';

interface RepeatLastDialogProps {
  item: MenuItemFull;
  selection: CartSelection;
  onRepeat: () => void;
  onChoose: () => void;
  onClose: () => void;
}

export function RepeatLastDialog({ item, selection, onRepeat, onChoose, onClose }: RepeatLastDialogProps) {
  const summary = customisationSummary(item, fromSelection(selection));
  return (
    <Dialog
      title="Repeat last used customisation?"
      onClose={onClose}
      testId="repeat-last-dialog"
      className="disc-repeat"
      footer={
        <div className="disc-confirm__actions">
          <Button variant="secondary" data-testid="repeat-choose" onClick={onChoose}>
            I'll choose
          </Button>
          <Button data-testid="repeat-last" onClick={onRepeat}>
            Repeat last
          </Button>
        </div>
      }
    >
      <p className="disc-repeat__item">{item.name}</p>
      {summary ? (
        <p className="disc-confirm__text" data-testid="repeat-summary">
          {summary}
        </p>
      ) : null}
    </Dialog>
  );
}
