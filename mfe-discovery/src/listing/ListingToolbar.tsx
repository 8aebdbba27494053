/** The listing's sort menu and filters (quick chips, cost ranges, cuisines, clear). */
import type { ListingResponse, ListingSortKey } from '@tiffin/contract';
import { COST_RANGES, DEFAULT_SORTS, FLAG_FILTERS, activeFilterCount, toggleCostRange, toggleCuisine, toggleFlag, type Refinement } from './refine';

const MAX_CUISINE_OPTIONS = 12;

export function ListingToolbar({ refinement, response, onChange }: { refinement: Refinement; response: ListingResponse | null; onChange: (next: Refinement) => void }) {
  const sorts = response?.sortConfigs?.length ? response.sortConfigs : DEFAULT_SORTS;
  const costRanges = response?.facets?.costRanges?.length ? response.facets.costRanges : COST_RANGES;
  const cuisines = (response?.facets?.cuisines ?? []).slice(0, MAX_CUISINE_OPTIONS);
  const { filters } = refinement;
  const setFilters = (next: Refinement['filters']) => onChange({ ...refinement, filters: next });
  const active = activeFilterCount(filters);
  return (
    <div className="disc-toolbar" role="group" aria-label="Sort and filter">
      <label className="disc-toolbar__sort">
        Sort by{' '}
        <select aria-label="Sort by" value={refinement.sortBy} onChange={(e) => onChange({ ...refinement, sortBy: e.target.value as ListingSortKey })}>
          {sorts.map((s) => (
            <option key={s.key} value={s.key}>
              {s.title}
            </option>
          ))}
        </select>
      </label>
      <div className="disc-toolbar__chips">
        {FLAG_FILTERS.map((f) => (
          <button key={f.key} type="button" className="disc-chip" aria-pressed={!!filters[f.key]} onClick={() => setFilters(toggleFlag(filters, f.key))}>
            {f.label}
          </button>
        ))}
        {costRanges.map((c) => (
          <button
            key={c.key}
            type="button"
            className="disc-chip"
            aria-pressed={!!filters.costRanges?.includes(c.key)}
            onClick={() => setFilters(toggleCostRange(filters, c.key))}
          >
            {c.title}
          </button>
        ))}
        {cuisines.length > 0 ? (
          <details className="disc-toolbar__cuisines">
            <summary>Cuisines{filters.cuisines?.length ? ` (${filters.cuisines.length})` : ''}</summary>
            <fieldset>
              <legend className="disc-visually-hidden">Cuisines</legend>
              {cuisines.map((c) => (
                <label key={c.label} className="disc-toolbar__cuisine">
                  <input type="checkbox" checked={!!filters.cuisines?.includes(c.label)} onChange={() => setFilters(toggleCuisine(filters, c.label))} />
                  {c.label} <span className="disc-toolbar__count">({c.count})</span>
                </label>
              ))}
            </fieldset>
          </details>
        ) : null}
        {active > 0 ? (
          <button type="button" className="disc-chip disc-chip--clear" onClick={() => setFilters({})}>
            Clear filters ({active})
          </button>
        ) : null}
      </div>
    </div>
  );
}
