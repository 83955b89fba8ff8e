/**
 * A multipart upload's commit takes only the item's fields; the thumbnail and the relationship
 * chosen in the Add item dialog are applied once the item exists.
 */
import { addRelationship, updateItem } from '../../api/index.ts';

export interface AfterUpload {
  thumbnail?: File;
  relation: { relationshipType?: string; originItemId?: string; destinationItemId?: string };
}

export async function finishUploadedItem(username: string, itemId: string, after: AfterUpload): Promise<void> {
  if (after.thumbnail) await updateItem(username, itemId, { thumbnail: after.thumbnail });
  const { relationshipType, originItemId, destinationItemId } = after.relation;
  if (relationshipType && (originItemId || destinationItemId)) {
    await addRelationship(username, { relationshipType, originItemId: originItemId ?? itemId, destinationItemId: destinationItemId ?? itemId });
  }
}
