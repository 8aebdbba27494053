import type { VegType } from '@tiffin/contract';

const LABELS: Record<VegType, string> = { VEG: 'Veg', NONVEG: 'Non-veg', EGG: 'Contains egg' };

/**
 * The veg / non-veg / egg mark. Accepts the edge's `vegType`, or the `isVeg` flag (1 = veg) that
 * cart lines carry.
 */
export function VegMark({ vegType, isVeg }: { vegType?: VegType; isVeg?: number | boolean }) {
  const type: VegType = vegType ?? (isVeg === 1 || isVeg === true ? 'VEG' : 'NONVEG');
  return <span className={`ds-veg-mark ds-veg-mark--${type.toLowerCase()}`} role="img" aria-label={LABELS[type]} title={LABELS[type]} />;
}
