import type { VegType } from '@tiffin/contract';

// DEFAULT: the dish's type was never recorded; the mark is shown plain, without a claim either way.
const LABELS: Record<VegType, string> = { VEG: 'Veg', NONVEG: 'Non-veg', EGG: 'Contains egg', DEFAULT: 'Food type not given' };

/**
 * The veg / non-veg / egg mark. Accepts the edge's `vegType`, or the `isVeg` flag (1 = veg) that
 * cart lines carry.
 */
export function VegMark({ vegType, isVeg }: { vegType?: VegType; isVeg?: number | boolean }) {
  const type: VegType = vegType ?? (isVeg === 1 || isVeg === true ? 'VEG' : 'NONVEG');
  return <span className={`ds-veg-mark ds-veg-mark--${type.toLowerCase()}`} role="img" aria-label={LABELS[type]} title={LABELS[type]} />;
}
