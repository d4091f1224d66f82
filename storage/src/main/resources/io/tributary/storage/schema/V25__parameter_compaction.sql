-- Compaction of parameter lookups (docs/decisions/sync-rules.md, Compacting parameter lookups): per group, how far
-- a compaction has examined bucket_parameters, and the fence below which a lookup may miss versions.
--
-- compacted_to: every version with op_id <= compacted_to has been examined; the next pass reads only versions above
--   it, through bucket_parameters_by_op, so a pass costs what was written since the last one.
-- fence: the highest published checkpoint a compaction deleted versions up to. A lookup at checkpoint C reads the
--   fence in the same statement; C < fence means versions it needed may be gone, and the reader uses a newer
--   checkpoint instead. A compaction raises the fence in the transaction of its deletes.
CREATE TABLE tributary.parameter_compaction (
    group_id      bigint PRIMARY KEY,
    compacted_to  bigint NOT NULL DEFAULT 0,
    fence         bigint NOT NULL DEFAULT 0
);

-- Versions by op id: a compaction pass reads the versions written since the last pass, and the sync API reads the
-- lookups a new checkpoint changed.
CREATE INDEX bucket_parameters_by_op ON tributary.bucket_parameters (group_id, op_id);
