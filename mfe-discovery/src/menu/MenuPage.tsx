/**
 * A restaurant's menu. `menu/quick` paints the page first, `menu/pl`
 * (which carries every item's add-on and variant groups) replaces it; a menu of another restaurant
 * than the route's is never shown (the spec's "stored menu of a different restaurant is cleared").
 * The page: the header, the veg-only toggle (remembered), the in-menu search, the categories with
 * their sub-categories (and a "Browse menu" jump list), the cart controls on every dish, the
 * customisation modal, the "Repeat last" question and the cart panel.
 */
import { markInitialReplyUsed } from '@tiffin/api-client';
import type { CartSelection } from '@tiffin/cart-store';
import { CartPanel } from '@tiffin/cart-store/ui';
import { navigate, type UserLocation } from '@tiffin/contract';
import { ErrorState, Skeleton, useAsync } from '@tiffin/design-system';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { ReplaceCartDialog } from '../common/ReplaceCartDialog';
import { isNotFound, menuErrorCopy, NOT_FOUND_PAGE } from '../common/errors';
import { useDocumentTitle } from '../common/useDocumentTitle';
import { BrowseMenu } from './BrowseMenu';
import { CustomisationDialog } from './CustomisationDialog';
import { customisedUnitPrice, fromSelection, variantGroups } from './customisation';
import { fetchMenu, fetchMenuQuick, initialMenu } from './menu-api';
import { MenuHeader } from './MenuHeader';
import { MenuItemCard } from './MenuItemCard';
import { isCustomisable, menuSections, type MenuSection } from './menu-rules';
import type { FullMenuResponse, MenuItemFull } from './menu-types';
import { orderingStatus } from './restaurant-state';
import { RepeatLastDialog } from './RepeatLastDialog';
import { useMenuCart } from './useMenuCart';
import { readVegOnly, shareVegOnly, writeVegOnly } from './veg-preference';
import './menu.css';

function sectionDomId(id: string): string {
  return `disc-menu-section-${id}`;
}

/** What the in-menu search says when no dish matches. */
function noResultsText(query: string): string {
  return `No results found for "${query}". Try another dish name.`;
}

function NotFoundState() {
  return <ErrorState role="region" title={NOT_FOUND_PAGE.title} message={NOT_FOUND_PAGE.message} actionLabel="GO HOME" onAction={() => navigate('/')} />;
}

function MenuSkeleton() {
  return (
    <div className="disc-menu" aria-busy="true" aria-label="Loading menu">
      <Skeleton height={28} width="50%" />
      <Skeleton height={16} width="30%" />
      <Skeleton height={16} width="40%" />
      {Array.from({ length: 4 }, (_, i) => (
        <Skeleton key={i} height={120} />
      ))}
    </div>
  );
}

/** The dishes whose pictures open the menu on a phone's first screen: fetched before the rest. */
const PRIORITY_DISHES = 2;

/** The first `count` dishes with a picture, in the order the menu shows them. */
function firstPictured(sections: MenuSection[], count: number): Set<string> {
  const ids = new Set<string>();
  const visit = (section: MenuSection) => {
    for (const item of section.items) {
      if (ids.size >= count) return;
      if (item.cloudinaryImageId) ids.add(item.id);
    }
    section.children.forEach(visit);
  };
  sections.forEach(visit);
  return ids;
}

function Section({ section, depth, renderItem }: { section: MenuSection; depth: number; renderItem: (item: MenuItemFull, headingLevel: 3 | 4) => ReactNode }) {
  const Heading = depth === 0 ? 'h2' : 'h3';
  return (
    <section id={depth === 0 ? sectionDomId(section.id) : undefined} className={depth === 0 ? 'disc-section' : 'disc-section disc-section--sub'} aria-label={section.name}>
      <Heading className="disc-section__title">
        {section.name} ({section.count})
      </Heading>
      {section.items.length > 0 ? <ul className="disc-section__items">{section.items.map((item) => renderItem(item as MenuItemFull, depth === 0 ? 3 : 4))}</ul> : null}
      {section.children.map((child) => (
        <Section key={child.id} section={child} depth={depth + 1} renderItem={renderItem} />
      ))}
    </section>
  );
}

function scrollToSection(id: string): void {
  document.getElementById(sectionDomId(id))?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
}

/** True when the item came from menu/quick and its groups are still to come from menu/pl. */
function lacksGroups(item: MenuItemFull): boolean {
  return isCustomisable(item) && item.addons === undefined && item.variantsV2 === undefined && item.variants === undefined;
}

function Menu({ data, complete }: { data: FullMenuResponse; complete: boolean }) {
  const { restaurant, menu } = data;
  useDocumentTitle(`Order food online from ${restaurant.name}${restaurant.areaName ? `, ${restaurant.areaName}` : ''}`);
  const [vegOnly, setVegOnly] = useState(readVegOnly);
  // Also when a preference kept before the cookie existed is read: the next first paint agrees.
  useEffect(() => shareVegOnly(vegOnly), [vegOnly]);
  const [query, setQuery] = useState('');
  const [customisingId, setCustomisingId] = useState<string | null>(null);
  const [repeat, setRepeat] = useState<{ itemId: string; selection: CartSelection } | null>(null);
  const cart = useMenuCart(restaurant);
  const ordering = orderingStatus(restaurant).state === 'OPEN';
  const sections = useMemo(() => menuSections(menu, { vegOnly, query }), [menu, vegOnly, query]);
  const priorityIds = useMemo(() => firstPictured(sections, PRIORITY_DISHES), [sections]);
  const items = menu.items ?? {};
  const customising = customisingId ? items[customisingId] : undefined;
  const repeatItem = repeat ? items[repeat.itemId] : undefined;

  const toggleVeg = () => {
    const next = !vegOnly;
    setVegOnly(next);
    writeVegOnly(next);
  };

  const onAdd = (item: MenuItemFull) => {
    if (isCustomisable(item)) setCustomisingId(item.id);
    else void cart.add(item, { menu_item_id: item.id, quantity: 1 });
  };

  // + on a customised dish already in the cart asks "Repeat last used customisation?".
  const onIncrement = (item: MenuItemFull) => {
    if (!isCustomisable(item)) {
      onAdd(item);
      return;
    }
    const last = cart.lastSelectionOf(item.id);
    if (last) setRepeat({ itemId: item.id, selection: last });
    else setCustomisingId(item.id);
  };

  const renderItem = (item: MenuItemFull, headingLevel: 3 | 4) => (
    <MenuItemCard
      key={item.id}
      item={item}
      headingLevel={headingLevel}
      priority={priorityIds.has(item.id)}
      quantity={cart.quantityOf(item.id)}
      ordering={ordering}
      onAdd={onAdd}
      onIncrement={onIncrement}
      onDecrement={cart.decrement}
    />
  );

  const trimmed = query.trim();
  return (
    <article className="disc-menu" data-restaurant-id={restaurant.id} aria-busy={complete ? undefined : true}>
      <MenuHeader restaurant={restaurant} />
      <div className="disc-menu__tools">
        <input
          type="search"
          className="disc-menu__search"
          placeholder="Search for dishes"
          aria-label="Search for dishes"
          data-testid="menu-search"
          value={query}
          maxLength={200}
          onChange={(event) => setQuery(event.target.value)}
        />
        <button type="button" role="switch" aria-checked={vegOnly} className="disc-veg-toggle" data-testid="veg-only-toggle" onClick={toggleVeg}>
          <span className="disc-veg-toggle__track" aria-hidden="true">
            <span className="disc-veg-toggle__thumb" />
          </span>
          Veg only
        </button>
      </div>
      <div className="disc-menu__body disc-menu__body--with-cart">
        {sections.length > 0 ? (
          <nav className="disc-menu__jump" aria-label="Menu categories">
            <ul>
              {sections.map((section) => (
                <li key={section.id}>
                  <button type="button" className="disc-menu__jump-link" onClick={() => scrollToSection(section.id)}>
                    {section.name}
                  </button>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <div className="disc-menu__sections">
          {sections.length === 0 ? (
            <p className="disc-menu__empty" role="status" data-testid="menu-no-results">
              {trimmed ? noResultsText(trimmed) : 'No dishes to show with this filter.'}
            </p>
          ) : (
            sections.map((section) => <Section key={section.id} section={section} depth={0} renderItem={renderItem} />)
          )}
        </div>
        {/* The cart panel, the cart team's (@tiffin/cart-store/ui). */}
        <CartPanel />
      </div>
      <BrowseMenu sections={sections} onPick={scrollToSection} />
      {customising && !lacksGroups(customising) ? (
        <CustomisationDialog
          key={customising.id}
          item={customising}
          onClose={() => setCustomisingId(null)}
          onAdd={async (selection, unitPrice) => {
            const added = await cart.add(customising, selection, unitPrice);
            if (added) setCustomisingId(null);
            return added;
          }}
        />
      ) : null}
      {repeat && repeatItem ? (
        <RepeatLastDialog
          item={repeatItem}
          selection={repeat.selection}
          onClose={() => setRepeat(null)}
          onChoose={() => {
            setRepeat(null);
            setCustomisingId(repeatItem.id);
          }}
          onRepeat={() => {
            setRepeat(null);
            const unit = variantGroups(repeatItem).length || repeatItem.addons?.length ? customisedUnitPrice(repeatItem, fromSelection(repeat.selection)) : undefined;
            void cart.add(repeatItem, repeat.selection, unit);
          }}
        />
      ) : null}
      {cart.conflict ? (
        <ReplaceCartDialog currentRestaurantName={cart.conflict.currentRestaurantName} onKeep={cart.keepCart} onReplace={() => void cart.startAfresh()} />
      ) : null}
    </article>
  );
}

/**
 * The page's data: menu/pl when it has come, else menu/quick, else the first error. A page that
 * came with this menu's menu/pl reply (the edge's initial state) shows it at once and asks for
 * neither on its first render.
 */
function useMenuData(restaurantId: string | undefined, location: UserLocation | null) {
  const query = { restaurantId: restaurantId ?? '', lat: location?.lat, lng: location?.lng };
  const deps = [restaurantId, location?.lat, location?.lng];
  const [carried] = useState(() => (restaurantId ? initialMenu(query) : undefined));
  useEffect(() => {
    if (carried) markInitialReplyUsed();
  }, [carried]);
  const full = useAsync((signal) => (restaurantId ? fetchMenu(query, { signal }) : Promise.resolve(null)), deps, { initial: carried });
  // The quick paint is best-effort: its failure only means waiting for menu/pl.
  const quick = useAsync((signal) => (restaurantId ? fetchMenuQuick(query, { signal }).catch(() => null) : Promise.resolve(null)), deps, {
    initial: carried ? null : undefined,
  });
  const belongs = (d: FullMenuResponse | null | undefined): d is FullMenuResponse => !!d && String(d.restaurant?.id) === String(restaurantId);
  if (full.status === 'success' && belongs(full.data)) return { status: 'ready' as const, data: full.data, complete: true, reload: full.reload };
  if (full.status === 'error') return { status: 'error' as const, error: full.error, reload: full.reload };
  if (full.status === 'success' && !full.data) return { status: 'missing' as const };
  if (quick.status === 'success' && belongs(quick.data)) return { status: 'ready' as const, data: quick.data, complete: false, reload: full.reload };
  return { status: 'loading' as const };
}

export function MenuPage({ restaurantId, location }: { restaurantId: string | undefined; location: UserLocation | null }) {
  const state = useMenuData(restaurantId, location);
  if (!restaurantId) return <NotFoundState />;
  if (state.status === 'loading') return <MenuSkeleton />;
  if (state.status === 'missing') return <NotFoundState />;
  if (state.status === 'error') {
    if (isNotFound(state.error)) return <NotFoundState />;
    const copy = menuErrorCopy(state.error);
    return <ErrorState title={copy.title} message={copy.message} actionLabel={copy.retry ? 'Retry' : undefined} onAction={copy.retry ? state.reload : undefined} />;
  }
  // Keyed by restaurant: the page's state (search, veg, an open modal) survives quick → full,
  // never a change of restaurant.
  return <Menu key={state.data.restaurant.id} data={state.data} complete={state.complete} />;
}
