/**
 * City, area and cuisine pages (`/city/:city`, `/:city`, `/city/:city/best-restaurants`,
 * `/:city/:area-restaurants`, `/:city/:x-collection`, `/:city/area-:area/:x-collection`). Real
 * content from the catalogue (GET restaurants/city): the heading, the city's (or area's)
 * restaurants best rated first, with "Show more", and links to its areas and cuisines. No location
 * is needed: these are where search engines land. The document title is the edge's (the HTML
 * already carries it for crawlers).
 */
import { edge } from '@tiffin/api-client';
import type { CityPageResponse, Restaurant } from '@tiffin/contract';
import { Button, ErrorState, Link } from '@tiffin/design-system';
import { useEffect, useState } from 'react';
import { isNotFound, listingErrorCopy } from '../common/errors';
import { RestaurantCard, RestaurantCardSkeleton } from '../listing/RestaurantCard';
import '../listing/listing.css';

interface CityPageProps {
  city: string;
  area?: string;
  /** A cuisine's URL word (`north-indian`), from a `…-collection` page. */
  cuisine?: string;
  best?: boolean;
}

type State =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; page: CityPageResponse; restaurants: Restaurant[]; more: 'idle' | 'loading' | 'error' };

export function CityPage({ city, area, cuisine, best }: CityPageProps) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    edge.cityRestaurants({ city, area, cuisine, best, offset: 0 }, { signal: controller.signal }).then(
      (page) => {
        if (controller.signal.aborted) return;
        document.title = page.title;
        setState({ status: 'ready', page, restaurants: page.cards.map((c) => c.data), more: 'idle' });
      },
      (error: unknown) => !controller.signal.aborted && setState({ status: 'error', error }),
    );
    return () => controller.abort();
  }, [city, area, cuisine, best, attempt]);

  if (state.status === 'loading') {
    return (
      <section className="disc-listing" aria-busy="true">
        <ul className="disc-list" aria-hidden="true">
          {Array.from({ length: 8 }, (_, i) => (
            <RestaurantCardSkeleton key={i} />
          ))}
        </ul>
      </section>
    );
  }
  if (state.status === 'error') {
    if (isNotFound(state.error)) {
      return <ErrorState role="region" title="Location not found" message="We don't have any services here till now. Try changing the location." />;
    }
    const copy = listingErrorCopy(state.error);
    return <ErrorState title={copy.title} message={copy.message} actionLabel={copy.retry ? 'Retry' : undefined} onAction={copy.retry ? () => setAttempt((n) => n + 1) : undefined} />;
  }

  const { page, restaurants, more } = state;
  const next = page.pageOffset.nextOffset;
  const loadMore = () => {
    if (next === null) return;
    setState({ ...state, more: 'loading' });
    edge.cityRestaurants({ city, area, cuisine, best, offset: next }).then(
      (more) =>
        setState((s) =>
          s.status === 'ready'
            ? { ...s, page: { ...s.page, pageOffset: more.pageOffset }, restaurants: [...s.restaurants, ...more.cards.map((c) => c.data).filter((r) => !s.restaurants.some((x) => x.id === r.id))], more: 'idle' }
            : s,
        ),
      () => setState((s) => (s.status === 'ready' ? { ...s, more: 'error' } : s)),
    );
  };

  return (
    <section className="disc-listing disc-city" aria-label={page.heading}>
      <header className="disc-collection-head">
        <h1>{page.heading}</h1>
        <p>{page.description}</p>
      </header>
      <h2 className="disc-listing__count" data-testid="restaurant-count">
        {page.totalRestaurants} {page.totalRestaurants === 1 ? 'restaurant' : 'restaurants'}
      </h2>
      {restaurants.length === 0 ? (
        <ErrorState role="region" title="There's nothing here" message="We cannot find what you are looking for. Please check your search query." />
      ) : (
        <ul className="disc-list" aria-label="Restaurants">
          {restaurants.map((r) => (
            <RestaurantCard key={r.id} restaurant={r} />
          ))}
        </ul>
      )}
      {next !== null ? (
        <div className="disc-listing__more">
          {more === 'error' ? <p role="alert">Oops!! Something went wrong</p> : null}
          <Button variant="secondary" onClick={loadMore} disabled={more === 'loading'}>
            Show more
          </Button>
        </div>
      ) : null}
      {page.cuisines.length > 0 ? (
        <nav className="disc-collections" aria-label={`Cuisines in ${page.area?.name ?? page.city.name}`}>
          {page.cuisines.map((c) => (
            <Link key={c.label} href={c.link} className="disc-chip">
              {c.label} <span className="disc-toolbar__count">({c.count})</span>
            </Link>
          ))}
        </nav>
      ) : null}
      {!page.area && page.areas.length > 0 ? (
        <nav className="disc-collections" aria-label={`Areas in ${page.city.name}`}>
          {page.areas.map((a) => (
            <Link key={a.slug} href={a.link} className="disc-chip">
              {a.name} <span className="disc-toolbar__count">({a.restaurants})</span>
            </Link>
          ))}
        </nav>
      ) : null}
    </section>
  );
}
