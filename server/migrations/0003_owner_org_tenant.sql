-- The submitter's organisation and tenant as the identity said at submit: the runner
-- injects them (X_ORG_NAME, X_TENANT_ID) into every attempt, including those started
-- after a restart, and neither is in the catalog to look up again. Rows written before
-- read as empty, which is what their tasks were started with.
ALTER TABLE tasks ADD COLUMN owner_org TEXT NOT NULL DEFAULT '';
ALTER TABLE tasks ADD COLUMN owner_tenant_id TEXT NOT NULL DEFAULT '';
