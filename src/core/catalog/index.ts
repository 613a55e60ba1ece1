/**
 * Model catalog: lookup of model records by id, variant suffix and alias (no HTTP in it).
 *
 * @module
 */
export { createCatalog } from './catalog.js';
export type { Catalog, CatalogOptions, ResolvedModel } from './catalog.js';
export {
  DEFAULT_THINKING_REASONING,
  EXTENDED_CONTEXT_FACTOR,
  ONLINE_WEB_SEARCH_PRICE,
  VARIANTS,
  applyVariant,
  isVariant,
  splitVariant,
} from './variants.js';
export type { Variant } from './variants.js';
