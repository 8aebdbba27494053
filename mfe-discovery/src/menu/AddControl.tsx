/** ADD at quantity 0, otherwise a − n + stepper. */
interface AddControlProps {
  itemName: string;
  quantity: number;
  disabled: boolean;
  customisable: boolean;
  onAdd: () => void;
  onIncrement: () => void;
  onDecrement: () => void;
}

export function AddControl({ itemName, quantity, disabled, customisable, onAdd, onIncrement, onDecrement }: AddControlProps) {
  if (quantity <= 0) {
    return (
      <div className="disc-add">
        <button type="button" className="disc-add__button" data-testid="add-button" aria-label={`Add ${itemName}`} disabled={disabled} onClick={onAdd}>
          ADD
        </button>
        {customisable ? <span className="disc-add__hint">Customisable</span> : null}
      </div>
    );
  }
  return (
    <div className="disc-add">
      <div className="disc-add__stepper" role="group" aria-label={`${itemName} quantity`} data-testid="item-stepper">
        <button type="button" className="disc-add__step" aria-label={`Remove one ${itemName}`} data-testid="stepper-decrement" onClick={onDecrement}>
          −
        </button>
        <span className="disc-add__quantity" aria-live="polite" data-testid="stepper-quantity">
          {quantity}
        </span>
        <button
          type="button"
          className="disc-add__step"
          aria-label={`Add one more ${itemName}`}
          data-testid="stepper-increment"
          disabled={disabled}
          onClick={onIncrement}
        >
          +
        </button>
      </div>
      {customisable ? <span className="disc-add__hint">Customisable</span> : null}
    </div>
  );
}
