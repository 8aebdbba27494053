/**
 * The search page, `/search`: a search box
 * with debounced auto-suggest (restaurants/search/suggest), results in tabs (restaurants/search/v3;
 * Restaurants first, each tab cached), the pre-search page (landing/PRE_SEARCH's popular cuisines
 * and the browser's recent searches), ADD on dish results through the shared cart, and the cart
 * tooltip. The route needs a location; App sends the user home without one.
 */
import { edge } from '@tiffin/api-client';
import { restaurantHref, type SearchDish, type SearchResultsResponse, type SearchSuggestion, type SearchTab, type UserLocation, type Restaurant, type MenuItem } from '@tiffin/contract';
import { useCart } from '@tiffin/cart-store';
import { ErrorState, errorCopyFor, formatPrice, Image, imageUrl, Link, Skeleton, useAsync, VegMark } from '@tiffin/design-system';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ReplaceCartDialog } from '../common/ReplaceCartDialog';
import { RestaurantCard } from '../listing/RestaurantCard';
import { AddControl } from '../menu/AddControl';
import { useMenuCart } from '../menu/useMenuCart';
import { cartCount, useCartTooltip } from './cart-tooltip';
import { readRecentSearches, rememberSearch } from './recent-searches';
import { cacheKey, SearchCache } from './search-cache';
import '../listing/listing.css';
import '../menu/menu.css';
import './search.css';

/** Wait after the last keystroke before asking for suggestions. */
const SUGGEST_DEBOUNCE_MS = 250;
export const NOTHING_HERE = {
  title: "There's nothing here",
  message: 'We cannot find what you are looking for. Please check your search query.',
} as const;

function queryFromUrl(): string {
  return new URLSearchParams(window.location.search).get('query')?.trim() ?? '';
}

type Results =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'success'; data: SearchResultsResponse }
  | { status: 'error'; error: unknown };

export function SearchPage({ location }: { location: UserLocation }) {
  const { lat, lng } = location;
  const [text, setText] = useState(queryFromUrl);
  const [submitted, setSubmitted] = useState(queryFromUrl);
  const [tab, setTab] = useState<SearchTab | null>(null);
  const [recent, setRecent] = useState(() => readRecentSearches());
  const [suggestions, setSuggestions] = useState<SearchSuggestion[]>([]);
  const [suggestOpen, setSuggestOpen] = useState(false);
  const [results, setResults] = useState<Results>({ status: 'idle' });
  const [attempt, setAttempt] = useState(0);
  const cache = useRef(new SearchCache());
  const snapshot = useCart();
  const tooltip = useCartTooltip(cartCount(snapshot.cart));

  // Auto-suggest while typing: debounced, the previous request aborted by the next.
  useEffect(() => {
    const typed = text.trim();
    if (!typed || !suggestOpen) {
      setSuggestions([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      edge.searchSuggest({ str: typed, lat, lng }, { signal: controller.signal }).then(
        (reply) => setSuggestions(reply.suggestions),
        () => setSuggestions([]),
      );
    }, SUGGEST_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text, suggestOpen, lat, lng]);

  // Results of the submitted query for the selected tab: from the cache, else fetched.
  useEffect(() => {
    if (!submitted) {
      setResults({ status: 'idle' });
      return;
    }
    const cached = cache.current.get(cacheKey(submitted, lat, lng, tab ?? 'RESTAURANT'));
    if (cached) {
      setResults({ status: 'success', data: cached });
      return;
    }
    const controller = new AbortController();
    setResults({ status: 'loading' });
    edge.search({ str: submitted, lat, lng, selectedTab: tab ?? undefined }, { signal: controller.signal }).then(
      (data) => {
        cache.current.set(cacheKey(submitted, lat, lng, data.selectedTab), data);
        setResults({ status: 'success', data });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setResults({ status: 'error', error });
      },
    );
    return () => controller.abort();
  }, [submitted, tab, lat, lng, attempt]);

  const submit = (query: string) => {
    const q = query.trim();
    if (!q) return;
    setText(q);
    setSubmitted(q);
    setTab(null);
    setSuggestOpen(false);
    setRecent(rememberSearch(q));
    window.history.replaceState(window.history.state, '', `/search?query=${encodeURIComponent(q)}`);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit(text);
  };

  return (
    <section className="disc-search" aria-label="Search">
      <form className="disc-search__form" role="search" onSubmit={onSubmit}>
        <input
          className="disc-search__input"
          type="search"
          aria-label="Search for restaurants and food"
          placeholder="Search for restaurants and food"
          data-testid="search-input"
          autoComplete="off"
          value={text}
          autoFocus
          onChange={(e) => {
            setText(e.target.value);
            setSuggestOpen(true);
            if (!e.target.value.trim()) setSubmitted('');
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setSuggestOpen(false);
          }}
        />
        {text ? (
          <button
            type="button"
            className="disc-search__clear"
            aria-label="Clear search"
            onClick={() => {
              setText('');
              setSubmitted('');
              setSuggestOpen(false);
            }}
          >
            ×
          </button>
        ) : null}
      </form>

      {suggestOpen && suggestions.length > 0 ? <SuggestionList suggestions={suggestions} onPick={submit} /> : null}

      {!submitted ? (
        <PreSearch lat={lat} lng={lng} recent={recent} onPick={submit} />
      ) : (
        <SearchResults results={results} selected={tab} onSelect={setTab} onRetry={() => setAttempt((n) => n + 1)} />
      )}

      {tooltip.visible ? (
        <div className="disc-search__tooltip" role="status" data-testid="cart-tooltip">
          <span>Item added to your cart</span>
          <Link href="/cart" className="disc-search__tooltip-action" onClick={tooltip.hide}>
            VIEW CART
          </Link>
        </div>
      ) : null}
    </section>
  );
}

function SuggestionList({ suggestions, onPick }: { suggestions: SearchSuggestion[]; onPick: (text: string) => void }) {
  return (
    <ul className="disc-search__suggestions" aria-label="Suggestions" data-testid="search-suggestions">
      {suggestions.map((s) => {
        const body = (
          <>
            <Image src={imageUrl(s.cloudinaryImageId, { w: 96, h: 96 })} alt="" width={48} height={48} />
            <span className="disc-search__suggestion-text">
              <span>{s.text}</span>
              <small>{s.subtitle}</small>
            </span>
          </>
        );
        return (
          <li key={`${s.type}-${s.restaurantId ?? s.text}`} data-testid="search-suggestion" data-type={s.type}>
            {s.type === 'RESTAURANT' && s.restaurantId ? (
              <Link className="disc-search__suggestion" href={restaurantHref({ id: s.restaurantId, slug: s.slug ?? '' })}>
                {body}
              </Link>
            ) : (
              <button type="button" className="disc-search__suggestion" onClick={() => onPick(s.text)}>
                {body}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** Before anything is searched: recent searches (newest first) and the popular cuisines here. */
function PreSearch({ lat, lng, recent, onPick }: { lat: number; lng: number; recent: string[]; onPick: (text: string) => void }) {
  const popular = useAsync((signal) => edge.preSearch({ lat, lng }, { signal }), [lat, lng]);
  const cuisines = popular.status === 'success' ? popular.data.cards.flatMap((c) => c.card.cuisines ?? []) : [];
  return (
    <div className="disc-search__pre">
      {recent.length > 0 ? (
        <section aria-label="Recent searches" data-testid="recent-searches">
          <h2 className="disc-search__heading">Recent Searches</h2>
          <ul className="disc-search__recent">
            {recent.map((q) => (
              <li key={q}>
                <button type="button" className="disc-search__recent-item" onClick={() => onPick(q)}>
                  {q}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-label="Popular Cuisines" data-testid="popular-cuisines">
        <h2 className="disc-search__heading">Popular Cuisines</h2>
        {popular.status === 'loading' ? <Skeleton height={96} /> : null}
        <ul className="disc-search__cuisines">
          {cuisines.map((c) => (
            <li key={c.name}>
              <button type="button" className="disc-search__cuisine" onClick={() => onPick(c.name)} aria-label={`${c.name}, ${c.restaurantCount} restaurants`}>
                <Image src={imageUrl(c.cloudinaryImageId, { w: 160, h: 160 })} alt="" width={80} height={80} />
                <span>{c.name}</span>
              </button>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

function SearchResults({ results, selected, onSelect, onRetry }: { results: Results; selected: SearchTab | null; onSelect: (tab: SearchTab) => void; onRetry: () => void }) {
  if (results.status === 'idle') return null;
  if (results.status === 'loading') {
    return (
      <div className="disc-search__results" aria-busy="true" data-testid="search-loading">
        <Skeleton height={120} />
        <Skeleton height={120} />
      </div>
    );
  }
  if (results.status === 'error') {
    const copy = errorCopyFor(results.error);
    return <ErrorState title={copy.title} message={copy.message} actionLabel={copy.retry ? 'Retry' : undefined} onAction={copy.retry ? onRetry : undefined} />;
  }
  const { data } = results;
  const current = selected ?? data.selectedTab;
  if (data.navigation.every((t) => t.count === 0)) {
    return <ErrorState role="region" title={NOTHING_HERE.title} message={NOTHING_HERE.message} />;
  }
  return (
    <div className="disc-search__results">
      <div role="tablist" aria-label="Search results" className="disc-search__tabs">
        {data.navigation.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={t.id === current}
            className={t.id === current ? 'disc-search__tab disc-search__tab--selected' : 'disc-search__tab'}
            data-testid={`search-tab-${t.id}`}
            onClick={() => onSelect(t.id)}
          >
            {t.title}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={data.navigation.find((t) => t.id === current)?.title}>
        {data.cards.length === 0 ? (
          <ErrorState role="region" title={NOTHING_HERE.title} message={NOTHING_HERE.message} />
        ) : current === 'RESTAURANT' ? (
          <ul className="disc-list" aria-label="Restaurants found">
            {data.cards.map((c) => (c.type === 'RESTAURANT' ? <RestaurantCard key={c.data.id} restaurant={c.data} /> : null))}
          </ul>
        ) : (
          <ul className="disc-search__dishes" aria-label="Dishes found">
            {data.cards.map((c) => (c.type === 'DISH' ? <DishCard key={c.data.dish.id} dish={c.data.dish} restaurant={c.data.restaurant} /> : null))}
          </ul>
        )}
      </div>
    </div>
  );
}

/** The cart's view of a dish found by search: a menu item without customisation. */
function asMenuItem(dish: SearchDish): MenuItem {
  return {
    id: dish.id,
    name: dish.name,
    description: '',
    category: dish.category,
    cloudinaryImageId: dish.cloudinaryImageId,
    price: dish.price,
    defaultPrice: dish.defaultPrice ?? 0,
    finalPrice: dish.price,
    isVeg: dish.isVeg,
    vegType: dish.vegType,
    inStock: dish.inStock,
    ribbon: null,
    subCategory: null,
    struckOutPrice: dish.defaultPrice,
    nextAvailableAtMessage: null,
    outOfStockMessage: null,
    recommended: false,
    customisable: dish.customisable,
    addons: [],
    variants: null,
    variantsV2: null,
  };
}

/**
 * A dish result: ADD puts it in the cart like the menu does (the menu's cart hook, so the
 * "items already in cart" question is the same); a dish with variants or add-ons is customised on
 * its menu instead.
 */
function DishCard({ dish, restaurant }: { dish: SearchDish; restaurant: Restaurant }) {
  const cart = useMenuCart(restaurant);
  const item = asMenuItem(dish);
  const quantity = cart.quantityOf(dish.id);
  const inStock = dish.inStock === 1;
  const menuHref = restaurantHref(restaurant);
  return (
    <li className="disc-search__dish" data-testid="dish-result" data-dish-id={dish.id}>
      <div className="disc-search__dish-info">
        <Link href={menuHref} className="disc-search__dish-restaurant">
          {restaurant.name}
        </Link>
        <p className="disc-search__dish-name">
          <VegMark vegType={dish.vegType} isVeg={dish.isVeg} /> {dish.name}
        </p>
        <p className="disc-search__dish-price">{formatPrice(dish.price)}</p>
      </div>
      <div className="disc-search__dish-media">
        <Image src={imageUrl(dish.cloudinaryImageId, { w: 236, h: 192 })} alt="" width={118} height={96} />
        {!inStock ? (
          <span className="disc-search__dish-unavailable">Unavailable</span>
        ) : dish.customisable ? (
          <Link href={menuHref} className="disc-add__button disc-search__dish-customise" aria-label={`Add ${dish.name} on the menu`}>
            ADD
          </Link>
        ) : (
          <AddControl
            itemName={dish.name}
            quantity={quantity}
            disabled={false}
            customisable={false}
            onAdd={() => void cart.add(item, { menu_item_id: dish.id, quantity: 1 })}
            onIncrement={() => void cart.add(item, { menu_item_id: dish.id, quantity: 1 })}
            onDecrement={() => cart.decrement(item)}
          />
        )}
        {dish.customisable && inStock ? <span className="disc-add__hint">Customisable</span> : null}
      </div>
      {cart.conflict ? (
        <ReplaceCartDialog currentRestaurantName={cart.conflict.currentRestaurantName} onKeep={cart.keepCart} onReplace={() => void cart.startAfresh()} />
      ) : null}
    </li>
  );
}
