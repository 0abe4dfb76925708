-- Events and phase reasons as catalog messages: the key and its arguments as JSON, so
-- the server renders them in each reader's language. NULL for rows written before,
-- which keep showing their English text.
ALTER TABLE task_events ADD COLUMN keyed TEXT;
ALTER TABLE task_history ADD COLUMN keyed TEXT;
