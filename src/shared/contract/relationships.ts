/** Relationships between items (content/users/<u>/addRelationship, deleteRelationship, content/items/<id>/relatedItems). */
import { own, visible, type Authority } from '../authority.ts';

/** Who may call each relationship operation: a member relates their own items; anyone reads the related items their sharing shows them. */
export const RELATIONSHIP_OPERATIONS = {
  addRelationship: own(),
  deleteRelationship: own(),
  relatedItems: visible('portal:admin:viewItems'),
} as const satisfies Record<string, Authority>;
