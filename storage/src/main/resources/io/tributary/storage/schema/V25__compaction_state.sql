-- Compaction state per group (docs/decisions/sync-rules.md, Compacting parameter lookups; docs/decisions/api.md,
-- Compaction): how far a compaction has examined bucket_parameters, and the fences readers check.
--
-- parameters_compacted_to: every lookup version with op_id <= it has been examined; the next pass reads only versions
--   above it, through bucket_parameters_by_op, so a pass costs what was written since the last one.
-- parameter_fence: the highest published checkpoint a compaction deleted lookup versions up to. A lookup at
--   checkpoint C reads it in the same statement; C < parameter_fence means versions it needed may be gone, and the
--   reader uses a newer checkpoint. Raised in the transaction of the deletes.
-- data_fence: the highest published checkpoint a compaction rewrote bucket ops (MOVE, CLEAR) up to, raised before
--   the first rewrite of a pass. A download of checkpoint C that read ops while C < data_fence may hold a mix that
--   adds up only at a later checkpoint, so the sync API does not complete C and serves the newer one.
CREATE TABLE tributary.compaction_state (
    group_id                 bigint PRIMARY KEY,
    parameters_compacted_to  bigint NOT NULL DEFAULT 0,
    parameter_fence          bigint NOT NULL DEFAULT 0,
    data_fence               bigint NOT NULL DEFAULT 0
);

-- Versions by op id: a compaction pass reads the versions written since the last pass, and the sync API reads the
-- lookups a new checkpoint changed.
CREATE INDEX bucket_parameters_by_op ON tributary.bucket_parameters (group_id, op_id);
