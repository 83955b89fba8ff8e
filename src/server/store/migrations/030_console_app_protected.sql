-- The console's own registered app (oauth_apps.console) is delete-protected (issue 39, 3): deleting
-- its item ends "Sign in with …" for everyone. New registrations are made protected
-- (areas/oauth/consoleApp.ts); this protects one registered before. Unprotecting it stays possible,
-- as for any item, and a later start does not undo that choice.
UPDATE items SET protected = true WHERE id IN (SELECT item_id FROM oauth_apps WHERE console) AND NOT protected;
