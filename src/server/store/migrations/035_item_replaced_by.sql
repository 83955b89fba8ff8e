-- A local extra of setContentStatus: the item that replaces a deprecated one ("Deprecated — use …").
-- Only a deprecated item has one (status.ts clears it whenever the status changes). No foreign key:
-- a recycled item comes back with its row as it was (recycle bin), whether or not its replacement
-- is still there; the console shows the link only to a replacement its user can open.
ALTER TABLE items ADD COLUMN replaced_by text;
