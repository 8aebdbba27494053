/**
 * A restaurant's menu (GET menu/pl with the stored location): the header, the veg-only toggle
 * (remembered), the in-menu search, a jump list of categories, the sections in the server's
 * order, and the cart controls on every dish (through @tiffin/cart-store).
 */
import { edge } from '@tiffin/api-client';
import { navigate, type MenuItem, type MenuResponse, type UserLocation } from '@tiffin/contract';
import { Button, ErrorState, Skeleton, useAsync } from '@tiffin/design-system';
import { useMemo, useState, type ReactNode } from 'react';
import { Dialog } from '../common/Dialog';
import { isNotFound, menuErrorCopy, NOT_FOUND_PAGE } from '../common/errors';
import { useDocumentTitle } from '../common/useDocumentTitle';
import { isOpen } from '../listing/restaurant-format';
import { CustomisationDialog } from './CustomisationDialog';
import { MenuHeader } from './MenuHeader';
import { MenuItemCard } from './MenuItemCard';
import { isCustomisable, menuSections, type MenuSection } from './menu-rules';
import { useMenuCart } from './useMenuCart';
import { readVegOnly, writeVegOnly } from './veg-preference';
import './menu.css';

function sectionDomId(id: string): string {
  return `disc-menu-section-${id}`;
}

function NotFoundState() {
  return (
    <ErrorState role="region" title={NOT_FOUND_PAGE.title} message={NOT_FOUND_PAGE.message} actionLabel="GO HOME" onAction={() => navigate('/')} />
  );
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

function Section({ section, depth, renderItem }: { section: MenuSection; depth: number; renderItem: (item: MenuItem) => ReactNode }) {
  const Heading = depth === 0 ? 'h2' : 'h3';
  return (
    <section id={depth === 0 ? sectionDomId(section.id) : undefined} className={depth === 0 ? 'disc-section' : 'disc-section disc-section--sub'} aria-label={section.name}>
      <Heading className="disc-section__title">
        {section.name} ({section.count})
      </Heading>
      {section.items.length > 0 ? <ul className="disc-section__items">{section.items.map(renderItem)}</ul> : null}
      {section.children.map((child) => (
        <Section key={child.id} section={child} depth={depth + 1} renderItem={renderItem} />
      ))}
    </section>
  );
}

function Menu({ data }: { data: MenuResponse }) {
  const { restaurant, menu } = data;
  useDocumentTitle(`Order food online from ${restaurant.name}${restaurant.areaName ? `, ${restaurant.areaName}` : ''}`);
  const [vegOnly, setVegOnly] = useState(readVegOnly);
  const [query, setQuery] = useState('');
  const [customising, setCustomising] = useState<MenuItem | null>(null);
  const cart = useMenuCart(restaurant);
  const ordering = isOpen(restaurant);
  const sections = useMemo(() => menuSections(menu, { vegOnly, query }), [menu, vegOnly, query]);

  const toggleVeg = () => {
    const next = !vegOnly;
    setVegOnly(next);
    writeVegOnly(next);
  };

  const onAdd = (item: MenuItem) => {
    if (isCustomisable(item)) setCustomising(item);
    else void cart.add(item, { menu_item_id: item.id, quantity: 1 });
  };

  const renderItem = (item: MenuItem) => (
    <MenuItemCard
      key={item.id}
      item={item}
      quantity={cart.quantityOf(item.id)}
      ordering={ordering}
      onAdd={onAdd}
      // A customised dish's + asks for the next customisation; a plain one adds one more.
      onIncrement={onAdd}
      onDecrement={cart.decrement}
    />
  );

  return (
    <article className="disc-menu" data-restaurant-id={restaurant.id}>
      <MenuHeader restaurant={restaurant} />
      <div className="disc-menu__tools">
        <input
          type="search"
          className="disc-menu__search"
          placeholder="Search for dishes"
          aria-label="Search for dishes"
          data-testid="menu-search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <button type="button" role="switch" aria-checked={vegOnly} className="disc-veg-toggle" data-testid="veg-only-toggle" onClick={toggleVeg}>
          <span className="disc-veg-toggle__track" aria-hidden="true">
            <span className="disc-veg-toggle__thumb" />
          </span>
          Veg only
        </button>
      </div>
      <div className="disc-menu__body">
        {sections.length > 0 ? (
          <nav className="disc-menu__jump" aria-label="Menu categories">
            <ul>
              {sections.map((section) => (
                <li key={section.id}>
                  <button
                    type="button"
                    className="disc-menu__jump-link"
                    onClick={() => document.getElementById(sectionDomId(section.id))?.scrollIntoView?.({ behavior: 'smooth', block: 'start' })}
                  >
                    {section.name}
                  </button>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <div className="disc-menu__sections">
          {sections.length === 0 ? (
            <p className="disc-menu__empty" role="status">
              {query.trim() ? `No results found for "${query.trim()}". Try another dish name.` : 'No dishes to show with this filter.'}
            </p>
          ) : (
            sections.map((section) => <Section key={section.id} section={section} depth={0} renderItem={renderItem} />)
          )}
        </div>
      </div>
      {customising ? (
        <CustomisationDialog
          item={customising}
          onClose={() => setCustomising(null)}
          onAdd={(selection, unitPrice) => {
            setCustomising(null);
            void cart.add(customising, selection, unitPrice);
          }}
        />
      ) : null}
      {cart.conflict ? (
        <Dialog
          title="Items already in cart"
          role="alertdialog"
          onClose={cart.keepCart}
          testId="replace-cart-dialog"
          footer={
            <div className="disc-confirm__actions">
              <Button variant="secondary" onClick={cart.keepCart}>
                No
              </Button>
              <Button data-testid="replace-cart-confirm" onClick={() => void cart.startAfresh()}>
                Yes, start afresh
              </Button>
            </div>
          }
        >
          <p className="disc-confirm__text">
            Your cart contains items from {cart.conflict.currentRestaurantName || 'another restaurant'}. Do you want to discard the selection and add items
            from this restaurant?
          </p>
        </Dialog>
      ) : null}
    </article>
  );
}

export function MenuPage({ restaurantId, location }: { restaurantId: string | undefined; location: UserLocation | null }) {
  const state = useAsync(
    (signal) => (restaurantId ? edge.menu({ restaurantId, lat: location?.lat, lng: location?.lng }, { signal }) : Promise.resolve(null)),
    [restaurantId, location?.lat, location?.lng],
  );
  if (!restaurantId) return <NotFoundState />;
  if (state.status === 'loading') return <MenuSkeleton />;
  if (state.status === 'error') {
    if (isNotFound(state.error)) return <NotFoundState />;
    const copy = menuErrorCopy(state.error);
    return <ErrorState title={copy.title} message={copy.message} actionLabel={copy.retry ? 'Retry' : undefined} onAction={copy.retry ? state.reload : undefined} />;
  }
  if (!state.data) return <NotFoundState />;
  return <Menu key={state.data.restaurant.id} data={state.data} />;
}
