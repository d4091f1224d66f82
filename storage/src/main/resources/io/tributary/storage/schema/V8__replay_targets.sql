-- Where rows ended, per partition, when a group's writers first started (the end offset a read-committed consumer
-- saw then). A group publishes its first checkpoint only at a barrier at or after it in every partition: before
-- that a replay reads a log that compaction may have thinned (the cleaner keeps only the newest barrier of the range
-- it cleaned and removes older versions of keys rewritten after it), so such a barrier can stand for a source
-- state that never existed. Written once, before the group's first checkpoint, by the first writer to start.
CREATE TABLE tributary.replay_targets (
    group_id     bigint  NOT NULL REFERENCES tributary.sync_rules (group_id) ON DELETE CASCADE,
    partition    integer NOT NULL CHECK (partition >= 0),
    end_offset   bigint  NOT NULL CHECK (end_offset >= 0),
    PRIMARY KEY (group_id, partition)
);

-- The offset of the barrier record each seal was read at; NULL for seals written before this step.
ALTER TABLE tributary.sealed_epochs ADD COLUMN barrier_offset bigint;
