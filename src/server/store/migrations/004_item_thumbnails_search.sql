-- Thumbnail renditions (one per item, thumbnail path and width, made once and kept in the blob
-- store) and indexes for item search.

CREATE TABLE item_thumbnail_renditions (
  item_id  text NOT NULL REFERENCES items (id) ON DELETE CASCADE,
  path     text NOT NULL,
  width    integer NOT NULL,
  blob_key text NOT NULL,
  size     bigint NOT NULL,
  PRIMARY KEY (item_id, path, width)
);

CREATE INDEX items_org_access ON items (org_id, access);
CREATE INDEX items_created ON items (created);
CREATE INDEX items_modified ON items (modified);
CREATE INDEX items_content_status ON items (content_status) WHERE content_status IS NOT NULL;
