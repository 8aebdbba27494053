/**
 * The customisation modal: one radio group per variant group (V1 or V2)
 * with the default preselected, checkboxes per add-on group, a running total, and two steps when
 * an item has variants and add-ons ('Step {0}/{1}', Continue and back). A broken group shows the
 * spec's message under its header and is scrolled into view. The total is display only: the cart
 * prices the line; when the server refuses it, its message is toasted and the modal stays open.
 */
import { Button, formatPrice, VegMark } from '@tiffin/design-system';
import { useEffect, useRef, useState } from 'react';
import { Dialog } from '../common/Dialog';
import {
  addonGroups,
  chooseVariation,
  customisationSteps,
  customisedUnitPrice,
  initialCustomisation,
  requirementLabel,
  stepLabel,
  toggleAddon,
  toItemSelection,
  validateCustomisation,
  variantGroups,
  type GroupError,
  type ItemSelection,
} from './customisation';
import type { MenuItemFull } from './menu-types';

interface CustomisationDialogProps {
  item: MenuItemFull;
  onClose: () => void;
  /** Adds the line; resolves true when the cart took it (the modal then closes). */
  onAdd: (selection: ItemSelection, unitPrice: number) => Promise<boolean> | boolean | void;
}

export function CustomisationDialog({ item, onClose, onAdd }: CustomisationDialogProps) {
  const [customisation, setCustomisation] = useState(() => initialCustomisation(item));
  const [errors, setErrors] = useState<GroupError[]>([]);
  const [stepIndex, setStepIndex] = useState(0);
  const [busy, setBusy] = useState(false);
  const bodyRef = useRef<HTMLDivElement>(null);
  const steps = customisationSteps(item);
  const step = steps[stepIndex] ?? 'addons';
  const lastStep = stepIndex >= steps.length - 1;
  const total = customisedUnitPrice(item, customisation);
  const errorOf = (groupId: string) => errors.find((e) => e.groupId === groupId)?.message;

  // The first broken group is scrolled into view whenever the errors change.
  useEffect(() => {
    const first = errors[0];
    if (!first) return;
    const groups = Array.from(bodyRef.current?.querySelectorAll<HTMLElement>('[data-group-id]') ?? []);
    const element = groups.find((g) => g.dataset.groupId === first.groupId);
    element?.scrollIntoView?.({ behavior: 'smooth', block: 'center' });
  }, [errors]);

  const toggle = (groupId: string, choiceId: string) => {
    const result = toggleAddon(item, customisation, groupId, choiceId);
    setCustomisation(result.customisation);
    setErrors((current) => [...current.filter((e) => e.groupId !== groupId), ...(result.error ? [{ groupId, message: result.error }] : [])]);
  };

  const submit = async () => {
    const broken = validateCustomisation(item, customisation);
    setErrors(broken);
    if (broken.length > 0) return;
    setBusy(true);
    try {
      const added = await onAdd(toItemSelection(item, customisation), total);
      if (added === false) setBusy(false);
    } catch {
      setBusy(false);
    }
  };

  const showVariants = steps.length < 2 || step === 'variants';
  const showAddons = steps.length < 2 || step === 'addons';

  return (
    <Dialog
      title={
        <>
          <span className="disc-custom__eyebrow">
            {steps.length > 1 ? (
              <span className="disc-custom__step" data-testid="customisation-step">
                {stepLabel(stepIndex, steps.length)}
              </span>
            ) : null}{' '}
            Customise
          </span>{' '}
          {item.name}
        </>
      }
      onClose={onClose}
      testId="customisation-dialog"
      className="disc-custom"
      footer={
        <div className="disc-custom__footer">
          {stepIndex > 0 ? (
            <Button variant="secondary" data-testid="customisation-back" onClick={() => setStepIndex((i) => Math.max(0, i - 1))}>
              Back
            </Button>
          ) : null}
          <span className="disc-custom__total" data-testid="customisation-total" aria-live="polite">
            Total {formatPrice(total)}
          </span>
          {lastStep ? (
            <Button data-testid="customisation-add" disabled={busy} onClick={() => void submit()}>
              {busy ? 'Adding…' : 'Add item'}
            </Button>
          ) : (
            <Button data-testid="customisation-continue" onClick={() => setStepIndex((i) => Math.min(steps.length - 1, i + 1))}>
              Continue
            </Button>
          )}
        </div>
      }
    >
      <div ref={bodyRef}>
        {showVariants
          ? variantGroups(item).map((group) => (
              <fieldset key={group.group_id} className="disc-custom__group" data-group-id={group.group_id}>
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
            ))
          : null}
        {showAddons
          ? addonGroups(item).map((group) => {
              const error = errorOf(group.group_id);
              const chosen = customisation.addons[group.group_id] ?? [];
              return (
                <fieldset
                  key={group.group_id}
                  className={error ? 'disc-custom__group disc-custom__group--error' : 'disc-custom__group'}
                  data-group-id={group.group_id}
                  aria-invalid={error ? true : undefined}
                >
                  <legend className="disc-custom__legend">
                    {group.group_name} <span className="disc-custom__requirement">{requirementLabel(group, chosen.length)}</span>
                  </legend>
                  {error ? (
                    <p className="disc-custom__error" role="alert" data-testid="customisation-error">
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
            })
          : null}
      </div>
    </Dialog>
  );
}
