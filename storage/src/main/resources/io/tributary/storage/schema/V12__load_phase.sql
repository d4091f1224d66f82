-- A group's load phase (docs/decisions.md, "A fresh group loads its ops without the key of bucket_data"): until
-- its first checkpoint nothing reads a group's ops, so its first writer may detach bucket_data_g<id> from
-- bucket_data and drop its primary key; the writers then COPY into bucket_data_g<id> itself, and the checkpointer
-- builds the key and attaches the table again in the transaction that publishes the first checkpoint.
--   NEW     as created: attached, with its key (a writer may start the load)
--   LOADING detached, without its key (no checkpoint may be published in this state)
--   INDEXED attached, with its key, for good
-- Groups created before this step keep their attached, keyed partitions: INDEXED.
ALTER TABLE tributary.sync_rules ADD COLUMN load_state text NOT NULL DEFAULT 'NEW'
    CHECK (load_state IN ('NEW', 'LOADING', 'INDEXED'));
UPDATE tributary.sync_rules SET load_state = 'INDEXED';
