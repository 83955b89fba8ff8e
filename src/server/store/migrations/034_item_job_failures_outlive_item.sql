-- A failed background download (addItem with dataUrl and async) removes its half-made item, but
-- the item's status must still answer "failed" with the reason: the job row outlives the item and
-- carries the owner the status operation checks. Finished jobs leave with the retention sweep.
ALTER TABLE item_jobs DROP CONSTRAINT item_jobs_item_id_fkey;
ALTER TABLE item_jobs ADD COLUMN org_id text;
ALTER TABLE item_jobs ADD COLUMN owner_id text;
ALTER TABLE item_jobs ADD COLUMN owner_username text;
