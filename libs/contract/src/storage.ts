/** Client storage keys carry the product's prefix (brand wording: `tfn_dweb_`). */
const STORAGE_PREFIX = 'tfn_dweb_';

export function storageKey(name: string): string {
  return `${STORAGE_PREFIX}${name}`;
}
