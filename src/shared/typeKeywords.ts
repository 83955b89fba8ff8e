/**
 * Type keywords the portal itself sets on an item (the ones CONT_0291 reports). In a module of its
 * own, without zod: the console's API module re-exports it and is part of the console's first load.
 */
export const RESERVED_TYPE_KEYWORDS = [
  'View Service',
  'Hosted Service',
  'Multilayer',
  'Singlelayer',
  'Service',
  'Data',
  'Collector',
  'Offline',
  'Sync',
  'Table',
  'Source',
  'Requires Subscription',
];
