/**
 * URL words the edge's pages and discovery's lookups share. The rule lives with discovery
 * (`cuisine_slug` in services/discovery/src/collections.rs), which also sends it with every
 * cuisine it lists (`CuisineCount.slug`); this is the same rule for links the browser builds
 * from a name alone (the footer's cuisine pages, a menu's cuisines). Both are pinned by the same
 * examples in their tests.
 */

/**
 * `Rolls & Wraps` → `rolls-wraps`: lower-case ASCII letters and digits, every other run one `-`,
 * apostrophes and accents dropped (`Café` → `cafe`).
 */
export function cuisineSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['\u2019]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** `/{cuisine}-restaurants-near-me` for a cuisine's name. */
export function cuisineNearMeHref(name: string): string {
  return `/${cuisineSlug(name)}-restaurants-near-me`;
}
