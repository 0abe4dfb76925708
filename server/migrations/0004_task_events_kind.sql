-- A task's events of one kind, in order: every read of a task or of the list asks for
-- its `stopping` events and for a `retrying` or `queued` one after each
-- (`stopping_since`, `task_columns!` in src/store/mod.rs), which the primary key alone
-- answers by reading all of the task's events (a long run's cluster notes, its retries).
CREATE INDEX task_events_kind ON task_events (task_id, kind, n);
