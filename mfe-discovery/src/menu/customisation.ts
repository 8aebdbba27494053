/**
 * The customisation dialog's rules (item pricing, add-on group limits). They
 * mirror the menu service's pricing (services/menu/src/pricing.rs) so the running total matches
 * what the cart will charge; the total is display only: the server prices every cart line.
 *
 * 1. One variation per variant group; the default one (else the first) is preselected.
 * 2. Price before add-ons: the pricing model whose variations are exactly the chosen combination,
 *    else the item's price plus the chosen variations' prices.
 * 3. Add-on limits per group: `maxAddons` (0 = none), `maxFreeAddons` for zero-priced choices
 *    (0 = none), `minAddons`. Messages are the spec's.
 * 4. `maxFreeAddons` choices of a group cost nothing: zero-priced ones use the allowance first,
 *    the rest makes paid choices free in menu order.
 */
import type { AddonGroup, MenuItem, VariantGroup } from '@tiffin/contract';
import { itemPrice } from './menu-rules';

export interface Customisation {
  /** Variant group id → chosen variation id. */
  variants: Record<string, string>;
  /** Add-on group id → chosen choice ids. */
  addons: Record<string, string[]>;
}

/** What the cart store is given for a customised item (ids only, never prices). */
export interface ItemSelection {
  menu_item_id: string;
  quantity: number;
  addons: Array<{ group_id: string; choice_id: string }>;
  variants: Array<{ group_id: string; variation_id: string }>;
}

export interface GroupError {
  groupId: string;
  message: string;
}

/** V1 variants: `variants.variant_groups`; V2 wins whenever it has groups. */
type WithVariants = Pick<MenuItem, 'variantsV2'> & { variants?: { variant_groups?: VariantGroup[] } | null };

/** "V2 applies when variant groups exist", otherwise the V1 groups (or none). */
export function variantFormat(item: WithVariants): 'V2' | 'V1' | null {
  if ((item.variantsV2?.variant_groups?.length ?? 0) > 0) return 'V2';
  if ((item.variants?.variant_groups?.length ?? 0) > 0) return 'V1';
  return null;
}

export function variantGroups(item: WithVariants): VariantGroup[] {
  const format = variantFormat(item);
  if (format === 'V2') return item.variantsV2!.variant_groups;
  if (format === 'V1') return item.variants!.variant_groups!;
  return [];
}

export function addonGroups(item: Pick<MenuItem, 'addons'>): AddonGroup[] {
  return item.addons ?? [];
}

const addonMessages = {
  min: (min: number, group: string) => `You must select at least ${min} ${group}`,
  max: (max: number, group: string) => `You can select a maximum of ${max} ${group}.`,
  maxFree: (max: number, group: string) => `You can select a maximum of ${max} free ${group}.`,
};

/**
 * A group that needs exactly N ('({chosen}/{N} required)'), at least N
 * ('(atleast {N})'), or nothing ('(optional)').
 */
export function requirementLabel(group: Pick<AddonGroup, 'minAddons' | 'maxAddons'>, chosen = 0): string {
  if (group.minAddons <= 0) return '(optional)';
  if (group.maxAddons === group.minAddons) return `(${Math.min(chosen, group.minAddons)}/${group.minAddons} required)`;
  return `(atleast ${group.minAddons})`;
}

/** "Step {0}/{1}": variants first, then add-ons, when an item has both. */
type CustomisationStep = 'variants' | 'addons';

export function customisationSteps(item: WithVariants & Pick<MenuItem, 'addons'>): CustomisationStep[] {
  const steps: CustomisationStep[] = [];
  if (variantGroups(item).length > 0) steps.push('variants');
  if (addonGroups(item).length > 0) steps.push('addons');
  return steps;
}

export function stepLabel(index: number, count: number): string {
  return `Step ${index + 1}/${count}`;
}

function defaultVariation(group: VariantGroup) {
  return group.variations.find((v) => v.default === 1) ?? group.variations[0];
}

export function initialCustomisation(item: WithVariants & Pick<MenuItem, 'addons'>): Customisation {
  const variants: Record<string, string> = {};
  for (const group of variantGroups(item)) {
    const variation = defaultVariation(group);
    if (variation) variants[group.group_id] = variation.id;
  }
  return { variants, addons: {} };
}

export function chooseVariation(customisation: Customisation, groupId: string, variationId: string): Customisation {
  return { ...customisation, variants: { ...customisation.variants, [groupId]: variationId } };
}

function chosenIn(group: AddonGroup, customisation: Customisation) {
  const ids = new Set(customisation.addons[group.group_id] ?? []);
  // Menu order, not click order: the same choices always cost the same.
  return group.choices.filter((choice) => ids.has(choice.id));
}

/**
 * Ticks or unticks an add-on. Ticking one more than the group allows is refused with the spec's
 * message and leaves the customisation as it was.
 */
export function toggleAddon(
  item: Pick<MenuItem, 'addons'>,
  customisation: Customisation,
  groupId: string,
  choiceId: string,
): { customisation: Customisation; error: string | null } {
  const group = addonGroups(item).find((g) => g.group_id === groupId);
  const choice = group?.choices.find((c) => c.id === choiceId);
  if (!group || !choice) return { customisation, error: null };
  const current = customisation.addons[groupId] ?? [];
  if (current.includes(choiceId)) {
    return { customisation: { ...customisation, addons: { ...customisation.addons, [groupId]: current.filter((id) => id !== choiceId) } }, error: null };
  }
  const chosen = chosenIn(group, customisation);
  if (group.maxAddons > 0 && chosen.length >= group.maxAddons) {
    return { customisation, error: addonMessages.max(group.maxAddons, group.group_name) };
  }
  if (choice.price === 0 && group.maxFreeAddons > 0 && chosen.filter((c) => c.price === 0).length >= group.maxFreeAddons) {
    return { customisation, error: addonMessages.maxFree(group.maxFreeAddons, group.group_name) };
  }
  return { customisation: { ...customisation, addons: { ...customisation.addons, [groupId]: [...current, choiceId] } }, error: null };
}

/** Every group whose limits the customisation breaks, in menu order, with the spec's message. */
export function validateCustomisation(item: Pick<MenuItem, 'addons'>, customisation: Customisation): GroupError[] {
  const errors: GroupError[] = [];
  for (const group of addonGroups(item)) {
    const chosen = chosenIn(group, customisation);
    const zeroPriced = chosen.filter((c) => c.price === 0).length;
    if (group.maxAddons > 0 && chosen.length > group.maxAddons) {
      errors.push({ groupId: group.group_id, message: addonMessages.max(group.maxAddons, group.group_name) });
    } else if (group.maxFreeAddons > 0 && zeroPriced > group.maxFreeAddons) {
      errors.push({ groupId: group.group_id, message: addonMessages.maxFree(group.maxFreeAddons, group.group_name) });
    } else if (chosen.length < group.minAddons) {
      errors.push({ groupId: group.group_id, message: addonMessages.min(group.minAddons, group.group_name) });
    }
  }
  return errors;
}

/** Rule 2: the price before add-ons of the chosen combination. */
function combinationPrice(item: Pick<MenuItem, 'price' | 'defaultPrice' | 'finalPrice'> & WithVariants, customisation: Customisation): number {
  const combination = variantGroups(item)
    .map((group) => ({ group, variation: group.variations.find((v) => v.id === customisation.variants[group.group_id]) ?? defaultVariation(group) }))
    .filter((entry): entry is { group: VariantGroup; variation: NonNullable<typeof entry.variation> } => entry.variation !== undefined);
  // Pricing models belong to V2 only; V1 variations add their price to the base.
  const models = variantFormat(item) === 'V2' ? (item.variantsV2?.pricing_models ?? []) : [];
  const model = models.find(
    (m) =>
      m.variations.length === combination.length &&
      combination.every(({ group, variation }) => m.variations.some((r) => r.group_id === group.group_id && r.variation_id === variation.id)),
  );
  if (model) return model.price;
  return combination.reduce((sum, { variation }) => sum + variation.price, itemPrice(item));
}

/** Rules 4 and 5: what the chosen add-ons are charged, after each group's free allowance. */
function addonsPrice(item: Pick<MenuItem, 'addons'>, customisation: Customisation): number {
  let total = 0;
  for (const group of addonGroups(item)) {
    const chosen = chosenIn(group, customisation);
    let allowance = Math.max(0, group.maxFreeAddons - chosen.filter((c) => c.price === 0).length);
    for (const choice of chosen) {
      if (choice.price > 0 && allowance > 0) {
        allowance -= 1;
        continue;
      }
      total += choice.price;
    }
  }
  return total;
}

/** The running total the dialog shows for one unit. */
export function customisedUnitPrice(item: MenuItem & WithVariants, customisation: Customisation): number {
  return combinationPrice(item, customisation) + addonsPrice(item, customisation);
}

/** The cart selection of a customised item: variations in group order, add-ons in menu order. */
export function toItemSelection(item: MenuItem & WithVariants, customisation: Customisation, quantity = 1): ItemSelection {
  return {
    menu_item_id: item.id,
    quantity,
    variants: variantGroups(item)
      .filter((group) => customisation.variants[group.group_id])
      .map((group) => ({ group_id: group.group_id, variation_id: customisation.variants[group.group_id]! })),
    addons: addonGroups(item).flatMap((group) => chosenIn(group, customisation).map((choice) => ({ group_id: group.group_id, choice_id: choice.id }))),
  };
}

/** A cart selection back into the dialog's shape (to price or describe a "Repeat last"). */
export function fromSelection(selection: { variants?: Array<{ group_id: string; variation_id: string }>; addons?: Array<{ group_id: string; choice_id: string }> }): Customisation {
  const variants: Record<string, string> = {};
  for (const v of selection.variants ?? []) variants[v.group_id] = v.variation_id;
  const addons: Record<string, string[]> = {};
  for (const a of selection.addons ?? []) addons[a.group_id] = [...(addons[a.group_id] ?? []), a.choice_id];
  return { variants, addons };
}

/** "Half, Raita, Onion" — the chosen variations and add-ons by name, in menu order. */
export function customisationSummary(item: MenuItem & WithVariants, customisation: Customisation): string {
  const names = [
    ...variantGroups(item).flatMap((g) => g.variations.filter((v) => v.id === customisation.variants[g.group_id]).map((v) => v.name)),
    ...addonGroups(item).flatMap((g) => chosenIn(g, customisation).map((c) => c.name)),
  ];
  return names.join(', ');
}
