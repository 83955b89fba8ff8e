/**
 * What other areas use of dependencies: keeping an item's reference index current, inside the
 * transaction of every items change that can alter its references (add, update, a stored file).
 */
export { indexItemReferences } from './indexer.ts';
