/**
 * The customisation dialog (spec 000 §2.6, §4, §5): one radio group per variant group with the
 * default preselected, checkboxes per add-on group, a running total, and 'Add item' blocked with
 * the spec's message while a group's limits are broken. The total is display only.
 */
import type { MenuItem } from '@tiffin/contract';
import { Button, formatPrice, VegMark } from '@tiffin/design-system';
import { useState } from 'react';
import { Dialog } from '../common/Dialog';
import {
  addonGroups,
  chooseVariation,
  customisedUnitPrice,
  initialCustomisation,
  requirementLabel,
  toggleAddon,
  toItemSelection,
  validateCustomisation,
  variantGroups,
  type GroupError,
  type ItemSelection,
} from './customisation';

export interface CustomisationDialogProps {
  item: MenuItem;
  onClose: () => void;
  onAdd: (selection: ItemSelection, unitPrice: number) => void;
}

export function CustomisationDialog({ item, onClose, onAdd }: CustomisationDialogProps) {
  const [customisation, setCustomisation] = useState(() => initialCustomisation(item));
  const [errors, setErrors] = useState<GroupError[]>([]);
  const total = customisedUnitPrice(item, customisation);
  const errorOf = (groupId: string) => errors.find((e) => e.groupId === groupId)?.message;

  const toggle = (groupId: string, choiceId: string) => {
    const result = toggleAddon(item, customisation, groupId, choiceId);
    setCustomisation(result.customisation);
    setErrors((current) => [
      ...current.filter((e) => e.groupId !== groupId),
      ...(result.error ? [{ groupId, message: result.error }] : []),
    ]);
  };

  const submit = () => {
    const broken = validateCustomisation(item, customisation);
    setErrors(broken);
    if (broken.length > 0) return;
    onAdd(toItemSelection(item, customisation), total);
  };

  return (
    <Dialog
      title={
        <>
          <span className="disc-custom__eyebrow">Customise</span> {item.name}
        </>
      }
      onClose={onClose}
      testId="customisation-dialog"
      className="disc-custom"
      footer={
        <div className="disc-custom__footer">
          <span className="disc-custom__total" data-testid="customisation-total">
            Total {formatPrice(total)}
          </span>
          <Button data-testid="customisation-add" onClick={submit}>
            Add item
          </Button>
        </div>
      }
    >
      {variantGroups(item).map((group) => (
        <fieldset key={group.group_id} className="disc-custom__group">
          <legend className="disc-custom__legend">{group.name}</legend>
          {group.variations.map((variation) => (
            <label key={variation.id} className="disc-custom__option">
              <input
                type="radio"
                name={`variant-${group.group_id}`}
                value={variation.id}
                checked={customisation.variants[group.group_id] === variation.id}
                disabled={variation.inStock === 0}
                onChange={() => setCustomisation((c) => chooseVariation(c, group.group_id, variation.id))}
              />
              <VegMark isVeg={variation.isVeg} />
              <span className="disc-custom__name">{variation.name}</span>
              {variation.price > 0 ? <span className="disc-custom__price">+{formatPrice(variation.price)}</span> : null}
              {variation.inStock === 0 ? <span className="disc-custom__unavailable">Unavailable</span> : null}
            </label>
          ))}
        </fieldset>
      ))}
      {addonGroups(item).map((group) => {
        const error = errorOf(group.group_id);
        const chosen = customisation.addons[group.group_id] ?? [];
        return (
          <fieldset key={group.group_id} className={error ? 'disc-custom__group disc-custom__group--error' : 'disc-custom__group'} data-group-id={group.group_id}>
            <legend className="disc-custom__legend">
              {group.group_name} <span className="disc-custom__requirement">{requirementLabel(group)}</span>
            </legend>
            {error ? (
              <p className="disc-custom__error" role="alert">
                {error}
              </p>
            ) : null}
            {group.choices.map((choice) => (
              <label key={choice.id} className="disc-custom__option">
                <input
                  type="checkbox"
                  value={choice.id}
                  checked={chosen.includes(choice.id)}
                  disabled={choice.inStock === 0}
                  onChange={() => toggle(group.group_id, choice.id)}
                />
                <VegMark isVeg={choice.isVeg} />
                <span className="disc-custom__name">{choice.name}</span>
                {choice.price > 0 ? <span className="disc-custom__price">+{formatPrice(choice.price)}</span> : null}
                {choice.inStock === 0 ? <span className="disc-custom__unavailable">Unavailable</span> : null}
              </label>
            ))}
          </fieldset>
        );
      })}
    </Dialog>
  );
}
