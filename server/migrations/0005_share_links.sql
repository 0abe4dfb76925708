-- Share links its owner can list and revoke. `n` numbers a task's links from 1, in the
-- order they were made, never reused: what a revoke names (the token stays out of
-- request paths, and so out of access logs). `created_by` is who made it; `revoked_at`
-- when it was revoked, NULL while it works. A revoked row stays (for audit, and so its
-- token is never given again). Links made before are numbered by when they were made
-- and credited to their task's owner, the only one who could make them.
ALTER TABLE task_shares ADD COLUMN n BIGINT NOT NULL DEFAULT 0;
ALTER TABLE task_shares ADD COLUMN created_by TEXT NOT NULL DEFAULT '';
ALTER TABLE task_shares ADD COLUMN revoked_at BIGINT;
UPDATE task_shares SET
    created_by = (SELECT t.owner FROM tasks t WHERE t.id = task_shares.task_id),
    n = (SELECT COUNT(*) FROM task_shares s WHERE s.task_id = task_shares.task_id
         AND (s.created_at < task_shares.created_at
              OR (s.created_at = task_shares.created_at AND s.token <= task_shares.token)));
CREATE UNIQUE INDEX task_shares_task_n ON task_shares (task_id, n);
