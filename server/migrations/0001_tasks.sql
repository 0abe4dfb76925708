-- Berth's task store. Portable SQL (SQLite now, Postgres later): TEXT and BIGINT
-- columns, JSON kept as TEXT, no autoincrement (sequence numbers are computed in the
-- inserting statement), no SQLite-only syntax.

-- One row per task. The spec is stored with its hidden env values masked; they live in
-- task_hidden_env. Columns copied out of the spec (owner, project_group, task_type,
-- visible_in_group) are what lists filter on.
CREATE TABLE tasks (
    id               TEXT   NOT NULL PRIMARY KEY,
    seq              BIGINT NOT NULL UNIQUE,
    owner            TEXT   NOT NULL,
    project_group    TEXT   NOT NULL,
    task_type        TEXT   NOT NULL,
    visible_in_group BIGINT NOT NULL,
    phase            TEXT   NOT NULL,
    attempts         BIGINT NOT NULL,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL,
    spec             TEXT   NOT NULL,
    quota            TEXT   NOT NULL,
    placement        TEXT,
    idempotency_key  TEXT
);

-- At most one task per owner and key; NULL keys never collide (in SQLite and Postgres).
CREATE UNIQUE INDEX tasks_owner_idempotency ON tasks (owner, idempotency_key);
-- Lists: newest first, paged by (created_at, id).
CREATE INDEX tasks_created ON tasks (created_at, id);
-- Recovery: unfinished tasks in submit order.
CREATE INDEX tasks_phase_seq ON tasks (phase, seq);
CREATE INDEX tasks_owner_created ON tasks (owner, created_at);

-- Every phase a task went through; n counts from 1.
CREATE TABLE task_history (
    task_id TEXT   NOT NULL REFERENCES tasks (id),
    n       BIGINT NOT NULL,
    phase   TEXT   NOT NULL,
    at      BIGINT NOT NULL,
    reason  TEXT   NOT NULL,
    PRIMARY KEY (task_id, n)
);

-- The real values of hidden env vars, by index into spec.environment.env.
CREATE TABLE task_hidden_env (
    task_id   TEXT   NOT NULL REFERENCES tasks (id),
    env_index BIGINT NOT NULL,
    value     TEXT   NOT NULL,
    PRIMARY KEY (task_id, env_index)
);

-- A task's tags now, in order; n counts from 1.
CREATE TABLE task_tags (
    task_id   TEXT   NOT NULL REFERENCES tasks (id),
    n         BIGINT NOT NULL,
    tag_key   TEXT   NOT NULL,
    tag_value TEXT   NOT NULL,
    PRIMARY KEY (task_id, n)
);
CREATE INDEX task_tags_key ON task_tags (tag_key, tag_value);

-- Events, oldest first; n counts from 1.
CREATE TABLE task_events (
    task_id TEXT   NOT NULL REFERENCES tasks (id),
    n       BIGINT NOT NULL,
    at      BIGINT NOT NULL,
    kind    TEXT   NOT NULL,
    message TEXT   NOT NULL,
    PRIMARY KEY (task_id, n)
);

-- Share links: a token names a task.
CREATE TABLE task_shares (
    token      TEXT   NOT NULL PRIMARY KEY,
    task_id    TEXT   NOT NULL REFERENCES tasks (id),
    created_at BIGINT NOT NULL
);
