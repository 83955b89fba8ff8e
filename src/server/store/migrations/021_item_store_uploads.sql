-- Multipart uploads into an object store (BLOB_STORE=s3://…): a part of 5 MiB or more goes straight
-- into the store's own multipart upload for the item (one per item, started with its first such
-- part), so that committing joins nothing through the service — the store completes the upload
-- (areas/items/uploads.ts, store/s3Blobs.ts). Smaller parts stay files of their own, as on disk.
CREATE TABLE item_store_uploads (
  item_id   text PRIMARY KEY REFERENCES items (id) ON DELETE CASCADE,
  -- The key the completed upload is stored under (the item's file once committed).
  blob_key  text NOT NULL,
  upload_id text NOT NULL,
  created   bigint NOT NULL
);

-- A part in the store's upload has its ETag and no file of its own.
ALTER TABLE item_parts ALTER COLUMN blob_key DROP NOT NULL;
ALTER TABLE item_parts ADD COLUMN etag text;
ALTER TABLE item_parts ADD CONSTRAINT item_parts_file_or_store_part CHECK ((blob_key IS NULL) <> (etag IS NULL));
