-- A part that arrives with its token first goes into the item's upload in the object store while it
-- arrives, as several store parts of a few MiB (S3 needs each store part's length before its bytes;
-- the item part's length is known only at its end). The store joins parts in the order of their
-- numbers, so item part n owns the block of store part numbers
-- (n - 1) * parts_per_item_part + 1 … n * parts_per_item_part, and the item keeps its parts' order
-- whatever order they arrive in (areas/items/storeNumbers.ts). Uploads started before this keep
-- one number per item part (numbered n).
ALTER TABLE item_store_uploads ADD COLUMN parts_per_item_part integer NOT NULL DEFAULT 1;

-- Each attempt at an item part (a re-sent part, or one sent again after its client went away) takes
-- numbers of its block that no attempt had: a store part number is never sent twice, so a late
-- store part of an aborted attempt can never replace bytes of the attempt that is kept. The parts an
-- attempt leaves behind are set aside at commit (areas/items/joinParts.ts: Ceph's gateway refuses to
-- complete an upload holding parts the completion leaves out). `used` counts the numbers of the
-- block already handed out; gone with the store's upload.
CREATE TABLE item_part_store_numbers (
  item_id  text NOT NULL REFERENCES item_store_uploads (item_id) ON DELETE CASCADE,
  part_num integer NOT NULL,
  used     integer NOT NULL,
  PRIMARY KEY (item_id, part_num)
);

-- The store parts holding an item part, in order ([{"n": …, "etag": …}]; etag stays the first
-- one's). Null on parts recorded before this migration: one store part numbered part_num.
ALTER TABLE item_parts ADD COLUMN store_parts jsonb;

-- Where a commit had to complete the store's upload with parts of attempts that were not kept (the
-- store refuses to leave any out), the parts it was completed of ([{"n": …, "size": …}]): a commit
-- tried again finds each kept part's bytes in the completed file by them (areas/items/joinParts.ts).
ALTER TABLE item_store_uploads ADD COLUMN completed_parts jsonb;
