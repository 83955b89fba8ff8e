-- Webhook deliveries change state twice each (pending → running → delivered), and every change
-- is written to every index whose columns or predicate involve `state`. Two of them were wider
-- than their queries: due deliveries and expired leases are found through the partial indexes of
-- 008, and failed deliveries (the deactivation policy, the console's failure counts) are the only
-- rows the failure index is asked about.
DROP INDEX webhook_deliveries_due;
DROP INDEX webhook_deliveries_failed;
CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (webhook_id, finished) WHERE state = 'failed';
