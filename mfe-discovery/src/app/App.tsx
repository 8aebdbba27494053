/**
 * mfe_discovery/App: the discovery team's pages. The shell matched the route (routes.json) and
 * passes it in; this component only picks the page for `route.id`. Each page lives in its own
 * folder: landing/, listing/, menu/ (with location/ and common/ shared between them).
 *
 * Each page group is its own chunk, loaded when its route is first shown: a first visit to the
 * landing page does not download the menu, the search or the cart's components, and a menu page
 * not the landing's. While a page's chunk loads the root stays and shows a skeleton.
 */
import { navigate, type MatchedRoute, type Restaurant, type RemoteAppProps, type UserLocation } from '@tiffin/contract';
import { ErrorState, Link, MfeRoot, PageDrawn, Skeleton } from '@tiffin/design-system';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { useUserLocation } from '../location/useUserLocation';
import '../common/common.css';

const Landing = lazy(() => import(/* webpackChunkName: "disc-landing" */ '../landing/Landing').then((m) => ({ default: m.Landing })));
const Listing = lazy(() => import(/* webpackChunkName: "disc-listing" */ '../listing/Listing').then((m) => ({ default: m.Listing })));
const CollectionPage = lazy(() =>
  import(/* webpackChunkName: "disc-collection" */ '../collections/CollectionPage').then((m) => ({ default: m.CollectionPage })),
);
const OffersPage = lazy(() => import(/* webpackChunkName: "disc-offers" */ '../offers/OffersPage').then((m) => ({ default: m.OffersPage })));
const CityPage = lazy(() => import(/* webpackChunkName: "disc-city" */ '../city/CityPage').then((m) => ({ default: m.CityPage })));
const MenuPage = lazy(() => import(/* webpackChunkName: "disc-menu" */ '../menu/MenuPage').then((m) => ({ default: m.MenuPage })));
const MealPage = lazy(() => import(/* webpackChunkName: "disc-meal" */ '../menu/MealPage').then((m) => ({ default: m.MealPage })));
const SearchPage = lazy(() => import(/* webpackChunkName: "disc-search" */ '../search/SearchPage').then((m) => ({ default: m.SearchPage })));

function titleCase(slug: string | undefined): string {
  return (slug ?? '')
    .split('-')
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

function queryValue(name: string): string | undefined {
  return new URLSearchParams(window.location.search).get(name) ?? undefined;
}

/** Search, collections and offers need a location; without one they go home. */
function RequireLocation({ location, children }: { location: UserLocation | null; children: (location: UserLocation) => ReactNode }) {
  useEffect(() => {
    if (!location) navigate('/', { replace: true });
  }, [location]);
  return location ? children(location) : null;
}

function SetLocationPrompt({ place }: { place?: string }) {
  return (
    <ErrorState role="region" title={place ? `Restaurants in ${place}` : 'Where should we deliver?'} message="Please enter your delivery location to view restaurants.">
      <Link href="/">Set delivery location</Link>
    </ErrorState>
  );
}

/** City, area and SEO pages: for now, the listing when the stored location is in that city. */
function PlacePage({ heading, city, location }: { heading: string; city?: string; location: UserLocation | null }) {
  const inCity = location && (!city || location.city.toLowerCase() === city.toLowerCase());
  return (
    <>
      <h1 className="disc-page-title">{heading}</h1>
      {inCity ? <Listing location={location} title={heading} /> : <SetLocationPrompt place={titleCase(city)} />}
    </>
  );
}

const hasOffer = (r: Restaurant) => (r.aggregatedDiscountInfo?.shortDescriptionList?.length ?? 0) > 0;

/** The collection and offers pages; `undefined` for every other route. */
function listingPage(route: MatchedRoute, location: UserLocation | null): ReactNode | undefined {
  const { params } = route;
  switch (route.id) {
    case 'collection':
      return <RequireLocation location={location}>{(loc) => <CollectionPage collectionId={params.collectionId} type={queryValue('type')} location={loc} />}</RequireLocation>;
    case 'offers':
    case 'offers-near-me':
      return <RequireLocation location={location}>{(loc) => <OffersPage tab={params.tab} location={loc} />}</RequireLocation>;
    case 'cuisine-near-me':
      // The cuisine's restaurants that deliver to the stored location (its URL word as the filter).
      return location ? (
        <>
          <h1 className="disc-page-title">{`${titleCase(params.cuisine)} restaurants near you`}</h1>
          <Listing location={location} title={`${titleCase(params.cuisine)} restaurants near you`} baseFilters={{ cuisines: [titleCase(params.cuisine)] }} showCarousels={false} />
        </>
      ) : (
        <SetLocationPrompt />
      );
    case 'city':
      return <CityPage city={params.city ?? ''} />;
    case 'city-best-restaurants':
      return <CityPage city={params.city ?? ''} best />;
    case 'area':
      return <CityPage city={params.city ?? ''} area={params.area} />;
    case 'city-collection':
    case 'area-collection':
      return <CityPage city={params.city ?? ''} area={params.area} cuisine={params.collection} />;
    default:
      return undefined;
  }
}

function Page({ route, location }: { route: MatchedRoute; location: UserLocation | null }) {
  const { params } = route;
  const issue3 = listingPage(route, location);
  if (issue3 !== undefined) return issue3;
  switch (route.id) {
    case 'home':
    case 'new-home':
    case 'auth':
      return location ? <Listing location={location} title="Restaurants near you" /> : <Landing />;
    case 'listing':
    case 'restaurants-near-me':
    case 'best-restaurants-near-me':
      return location ? <Listing location={location} title="Restaurants near you" /> : <SetLocationPrompt />;
    case 'cuisine-near-me':
      return <PlacePage heading={`${titleCase(params.cuisine)} restaurants near you`} location={location} />;
    case 'menu':
    case 'menu-by-id':
    case 'city-restaurant':
      return <MenuPage restaurantId={params.restaurantId} location={location} />;
    case 'menu-index':
      // Without the path param the restaurant_id query value is used.
      return <MenuPage restaurantId={params.restaurantId ?? queryValue('restaurant_id')} location={location} />;
    case 'meal':
      return <MealPage mealId={params.mealId} restaurantId={queryValue('restId')} />;
    case 'search':
      return <RequireLocation location={location}>{(loc) => <SearchPage location={loc} />}</RequireLocation>;
    case 'collection':
      return <RequireLocation location={location}>{(loc) => <Listing location={loc} title="Collection" collection={params.collectionId} />}</RequireLocation>;
    case 'offers':
    case 'offers-near-me':
      return (
        <RequireLocation location={location}>
          {(loc) => (
            <>
              <h1 className="disc-page-title">Offers for you</h1>
              <Listing location={loc} title="Offers near you" only={hasOffer} />
            </>
          )}
        </RequireLocation>
      );
    case 'eatlist':
      return <PlacePage heading={params.slug ? titleCase(params.slug) : 'Eatlists'} location={location} />;
    case 'city':
    case 'city-best-restaurants':
      return <PlacePage heading={`${route.id === 'city' ? 'Food delivery in' : 'Best restaurants in'} ${titleCase(params.city)}`} city={params.city} location={location} />;
    case 'area':
      return <PlacePage heading={`Restaurants in ${titleCase(params.area)}, ${titleCase(params.city)}`} city={params.city} location={location} />;
    case 'city-collection':
    case 'area-collection':
      return <PlacePage heading={`${titleCase(params.collection)} in ${titleCase(params.area ?? params.city)}`} city={params.city} location={location} />;
    default:
      return <ErrorState role="region" title="There's nothing here" message="We cannot find what you are looking for. Please check your search query." />;
  }
}

export default function App({ route }: RemoteAppProps) {
  const location = useUserLocation();
  return (
    <MfeRoot mfe="mfe-discovery" version={__MFE_VERSION__} className="disc-root">
      <Suspense fallback={<Skeleton height={240} />}>
        <Page route={route} location={location} />
        <PageDrawn />
      </Suspense>
    </MfeRoot>
  );
}
