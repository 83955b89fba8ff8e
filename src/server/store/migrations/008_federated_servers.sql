-- Servers federated with an organization, their feature and geoprocessing services, and the
-- services' webhooks (spec §2 "Service webhook", §4.4; facts §3.3). Managed through the
-- server-administration path /server/<serverId>/admin/services/<service>.<type>/webhooks/…
CREATE TABLE federated_servers (
  id          text PRIMARY KEY,
  org_id      text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name        text NOT NULL,
  url         text NOT NULL,
  admin_url   text NOT NULL,
  server_role text NOT NULL DEFAULT 'FEDERATED_SERVER',
  created     bigint NOT NULL
);
CREATE INDEX federated_servers_org ON federated_servers (org_id, created);

CREATE TABLE federated_services (
  server_id     text NOT NULL REFERENCES federated_servers (id) ON DELETE CASCADE,
  folder_name   text NOT NULL DEFAULT '',
  service_name  text NOT NULL,
  service_type  text NOT NULL CHECK (service_type IN ('FeatureServer', 'GPServer')),
  item_id       text,
  owner_id      text NOT NULL,
  created       bigint NOT NULL,
  PRIMARY KEY (server_id, folder_name, service_name, service_type)
);

CREATE TABLE service_webhooks (
  id             text PRIMARY KEY,
  server_id      text NOT NULL,
  folder_name    text NOT NULL,
  service_name   text NOT NULL,
  service_type   text NOT NULL,
  name           text NOT NULL,
  change_types   text[] NOT NULL,
  signature_key  text NOT NULL DEFAULT '',
  hook_url       text NOT NULL,
  active         boolean NOT NULL,
  content_type   text NOT NULL,
  schedule_info  jsonb NOT NULL DEFAULT '{}'::jsonb,
  payload_format text NOT NULL,
  owner          text NOT NULL,
  modified_id    text NOT NULL,
  created        bigint NOT NULL,
  modified       bigint NOT NULL,
  FOREIGN KEY (server_id, folder_name, service_name, service_type)
    REFERENCES federated_services (server_id, folder_name, service_name, service_type) ON DELETE CASCADE
);
CREATE INDEX service_webhooks_service ON service_webhooks (server_id, folder_name, service_name, service_type);
CREATE INDEX service_webhooks_owner ON service_webhooks (lower(owner));

-- Organization webhooks: why a webhook stopped (the deactivation policy, a 410 from the receiver,
-- or an administrator), so the console can say so. Cleared on activate.
ALTER TABLE webhooks ADD COLUMN deactivated_reason text;
ALTER TABLE webhooks ADD COLUMN deactivated_at bigint;

-- Webhook delivery claims: a webhook's oldest due deliveries, and leases that ran out, found by
-- index rather than by scanning every delivery ever made.
CREATE INDEX webhook_deliveries_pending_hook ON webhook_deliveries (webhook_id, next_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_pending_due ON webhook_deliveries (next_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_running ON webhook_deliveries (locked_until) WHERE state = 'running';
