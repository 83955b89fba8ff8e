-- The recycle bin (docs/recycle-bin.md): a deleted item's rows leave `items` and the tables that hang
-- off it (so no search, listing or dependency query sees it) and wait here, as JSON, with the blob
-- keys of its files, until it is restored, deleted permanently, or purged after its retention.
CREATE TABLE recycled_items (
  id              text PRIMARY KEY,
  org_id          text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  owner_id        text NOT NULL,
  owner_username  text NOT NULL,
  title           text NOT NULL,
  type            text NOT NULL,
  folder_id       text,
  size            bigint NOT NULL DEFAULT 0,
  deleted         bigint NOT NULL,
  deleted_by      text,
  expires         bigint NOT NULL,
  -- {"<table>": [row, …]} for items and every table whose rows reference the item.
  snapshot        jsonb NOT NULL
);
CREATE INDEX recycled_items_org ON recycled_items (org_id, deleted);
CREATE INDEX recycled_items_expires ON recycled_items (expires);

-- The blob keys a recycled item keeps (its data file, resources, info files, thumbnails): the stray
-- blob sweep must not take them for files no row refers to.
CREATE TABLE recycled_item_blobs (
  item_id  text NOT NULL REFERENCES recycled_items (id) ON DELETE CASCADE,
  blob_key text NOT NULL,
  PRIMARY KEY (item_id, blob_key)
);
CREATE INDEX recycled_item_blobs_key ON recycled_item_blobs (blob_key);
