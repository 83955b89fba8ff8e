-- Item resources (content/users/<u>/items/<id>/addResources …, content/items/<id>/resources): files
-- an app keeps beside an item (images, JSON configuration, a deployed solution's files), each at a
-- path of plain segments under the item. The bytes live in the blob store like the item's own file;
-- `access` is 'inherit' (the item's sharing), 'private' (the owner and administrators only) or 'public'
-- (anyone).
-- Gone with the item (the blob keys are collected first; retention sweeps any left behind).
CREATE TABLE item_resources (
  item_id  text NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  path     text NOT NULL,
  blob_key text NOT NULL,
  size     bigint NOT NULL,
  access   text NOT NULL DEFAULT 'inherit' CHECK (access IN ('inherit', 'private', 'public')),
  created  bigint NOT NULL,
  modified bigint NOT NULL,
  PRIMARY KEY (item_id, path)
);

-- Retention asks, per stored key, whether any row names it.
CREATE INDEX item_resources_blob_key ON item_resources (blob_key);

-- The bytes of an item's resources, kept beside `size` (the bytes of its data, which serving the
-- data relies on): the item's reported size is the two together, as ArcGIS counts resources in it.
ALTER TABLE items ADD COLUMN resources_size bigint NOT NULL DEFAULT 0;
