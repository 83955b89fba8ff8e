-- Indexes for the retention sweeps (src/server/jobs/retention.ts), so that a sweep batch reads
-- only the rows it removes.

-- Deleting a delivery cascades to its attempts; without this index every deleted delivery would
-- scan the whole attempt log.
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id);

-- Finished deliveries of one webhook by when they finished: the age limit and the per-webhook cap.
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (webhook_id, finished) WHERE state IN ('delivered', 'failed');

-- Multipart uploads still open, oldest first (abandoned uploads).
CREATE INDEX items_partial ON items (created) WHERE status = 'partial';
