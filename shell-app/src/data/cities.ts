/**
 * The city list (GET /api/misc/cities), needed twice: to decide city routes and to fill the footer.
 * Fetched once per page load and shared by both.
 */
import { edge } from '@tiffin/api-client';
import type { City } from '@tiffin/contract';
import { useEffect, useState } from 'react';
import type { KnownCities } from '../routing/match';

export type CitiesState = { status: 'loading' } | { status: 'loaded'; cities: City[] } | { status: 'failed' };

let pending: Promise<City[]> | null = null;

function loadCities(): Promise<City[]> {
  pending ??= edge.cities().then((data) => data.cities ?? []);
  return pending;
}

export function useCities(): CitiesState {
  const [state, setState] = useState<CitiesState>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    loadCities().then(
      (cities) => live && setState({ status: 'loaded', cities }),
      () => live && setState({ status: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

/** Every slug the edge knows (enabled or not) counts for routing; the footer filters further. */
export function knownCities(state: CitiesState): KnownCities {
  if (state.status === 'loading') return 'loading';
  if (state.status === 'failed') return 'unavailable';
  return new Set(state.cities.map((city) => city.slug.toLowerCase()));
}
