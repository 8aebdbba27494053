/**
 * Pure rules of the menu page: which price an
 * item shows and when the original is struck out, whether it can be added or must be customised,
 * the search rule, and how the veg filter and the search shape the menu's sections.
 */
import type { MenuItem, MenuResponse, MenuWidget } from '@tiffin/contract';

/** What one unit costs before choices: the final price, else the default, else the list price. */
export function itemPrice(item: Pick<MenuItem, 'price' | 'defaultPrice' | 'finalPrice'>): number {
  if (item.finalPrice > 0) return item.finalPrice;
  if (item.defaultPrice > 0) return item.defaultPrice;
  return item.price;
}

/**
 * The struck-out original price: the edge decides it (`struckOutPrice`, null for none); the page
 * still never strikes out the price being charged, nor a non-positive one.
 */
export function struckOutPrice(item: Pick<MenuItem, 'price' | 'defaultPrice' | 'finalPrice' | 'struckOutPrice'>): number | null {
  const struck = item.struckOutPrice;
  return struck !== null && Number.isSafeInteger(struck) && struck > 0 && struck !== itemPrice(item) ? struck : null;
}

export function isInStock(item: Pick<MenuItem, 'inStock'>): boolean {
  return item.inStock === 1;
}

/**
 * Has variant groups or add-on groups: adding it goes through the customisation dialog. The edge
 * says so (`customisable`), also on menu/quick, which leaves the groups out.
 */
export function isCustomisable(item: Pick<MenuItem, 'customisable'>): boolean {
  return item.customisable;
}

/** Why an out-of-stock dish cannot be ordered, and when it comes back if known. */
export function unavailableText(item: { nextAvailableAtMessage?: string | null; outOfStockMessage?: string | null }): string {
  return item.nextAvailableAtMessage?.trim() || item.outOfStockMessage?.trim() || 'This item is not available.';
}

/** Veg when vegType is VEG (isVeg 1). */
function isVegItem(item: Pick<MenuItem, 'vegType' | 'isVeg'>): boolean {
  return item.vegType ? item.vegType === 'VEG' : item.isVeg === 1;
}

/** Spice icons: MEDIUMSPICY one, VERYSPICY two, anything else none. */
export function spiceIcons(level: string | null | undefined): number {
  if (level === 'VERYSPICY') return 2;
  if (level === 'MEDIUMSPICY') return 1;
  return 0;
}

/** Where a word may start in a name: its beginning, after a space, or where letters/digits resume. */
function wordStarts(name: string): number[] {
  const starts: number[] = [];
  const isWordChar = (ch: string) => /[\p{L}\p{N}]/u.test(ch);
  const chars = Array.from(name);
  let offset = 0;
  let previous = ' ';
  for (const ch of chars) {
    const afterSpace = /\s/u.test(previous);
    if (!/\s/u.test(ch) && (afterSpace || (isWordChar(ch) && !isWordChar(previous)))) starts.push(offset);
    offset += ch.length;
    previous = ch;
  }
  return starts;
}

/**
 * The query is split on whitespace and every word must match the start of a word in the
 * name, case-insensitively. Plain string comparison, no regular expression built from the query,
 * so '(', '.*' or '+' are just characters. An empty query matches everything.
 */
export function matchesMenuSearch(name: string, query: string): boolean {
  const words = query.toLocaleLowerCase().split(/\s+/u).filter(Boolean);
  if (words.length === 0) return true;
  const lower = name.toLocaleLowerCase();
  const starts = wordStarts(lower);
  return words.every((word) => starts.some((start) => lower.startsWith(word, start)));
}

interface MenuFilters {
  vegOnly: boolean;
  query: string;
}

export interface MenuSection {
  id: string;
  name: string;
  type: MenuWidget['type'];
  items: MenuItem[];
  /** Sub-categories (one level, as the edge sends them). */
  children: MenuSection[];
  /** Items here and in the sub-categories. */
  count: number;
}

function section(widget: MenuWidget, items: MenuResponse['menu']['items'], keep: (item: MenuItem) => boolean): MenuSection {
  const own = (widget.entities ?? []).map((e) => items[e.id]).filter((item): item is MenuItem => item !== undefined && keep(item));
  const children = (widget.widgets ?? []).map((child) => section(child, items, keep)).filter((child) => child.count > 0);
  return {
    id: widget.id,
    name: widget.name,
    type: widget.type,
    items: own,
    children,
    count: own.length + children.reduce((n, c) => n + c.count, 0),
  };
}

/**
 * The menu's sections in the server's order (Recommended first, then categories with their
 * sub-categories), keeping only items that pass the veg filter and the search, and dropping
 * sections left empty.
 */
export function menuSections(menu: MenuResponse['menu'], filters: MenuFilters): MenuSection[] {
  const keep = (item: MenuItem) => (!filters.vegOnly || isVegItem(item)) && matchesMenuSearch(item.name, filters.query);
  return (menu.widgets ?? []).map((widget) => section(widget, menu.items ?? {}, keep)).filter((s) => s.count > 0);
}

/** Descriptions longer than this are clamped with a 'more' control. */
const DESCRIPTION_CLAMP_CHARS = 140;

export function needsClamp(description: string | undefined): boolean {
  return (description?.length ?? 0) > DESCRIPTION_CLAMP_CHARS;
}
