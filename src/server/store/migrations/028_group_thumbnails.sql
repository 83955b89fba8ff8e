-- Group thumbnails (createGroup and community/groups/<id>/update take a `thumbnail` file, served at
-- community/groups/<id>/info/<file>): the image in the blob store, named by a row here; the group's
-- `thumbnail` is the file name its record carries. Gone with the group.
ALTER TABLE groups ADD COLUMN thumbnail text;

CREATE TABLE group_info_files (
  group_id text NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  path     text NOT NULL,
  blob_key text NOT NULL,
  size     bigint NOT NULL,
  PRIMARY KEY (group_id, path)
);

-- Retention asks, per stored key, whether any row names it.
CREATE INDEX group_info_files_blob_key ON group_info_files (blob_key);
