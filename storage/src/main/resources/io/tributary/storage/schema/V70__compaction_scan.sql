-- A bucket a bounded compaction pass stopped inside (docs/decisions/api.md, Compaction), so that the next pass, in
-- this process or another, goes on where it stopped instead of starting the bucket again. At most one per group;
-- written only by the compaction holding the group's lock, deleted when the bucket is done.
--
-- after_cursor: compaction_state.bucket_cursor when the pass stopped (the bucket before this one); a later pass
--   resumes the scan only when it starts from that same cursor.
-- checkpoint: the published checkpoint the bucket is compacted up to; a resumed scan keeps it.
-- below: the scan has read every op of the bucket from it up to the checkpoint (newest first).
-- scanned: the scan reached the bucket's first op; the fold (the leading ops into one CLEAR) is under way.
-- last_not_put, ops_since_put, lowest_live_put: the scan's view of the bucket's leading run of ops that are no
--   live PUT, and its lowest live PUT so far.
-- fold_op_id, fold_checksum: the CLEAR the fold wrote last (0, 0 before the first); a resumed fold checks that it is
--   still there as written.
-- Every superseded op the scan found above below is a MOVE before the row is written (none waits in memory only).
CREATE TABLE tributary.compaction_scan (
    group_id         bigint  PRIMARY KEY,
    after_cursor     text    NOT NULL,
    bucket           text    NOT NULL,
    checkpoint       bigint  NOT NULL,
    below            bigint  NOT NULL,
    scanned          boolean NOT NULL,
    last_not_put     bigint  NOT NULL,
    ops_since_put    bigint  NOT NULL,
    lowest_live_put  bigint  NOT NULL,
    fold_op_id       bigint  NOT NULL,
    fold_checksum    bigint  NOT NULL
);

-- The rows (output table and row id, as "<length of table>:<table><row id>") the stopped scan has seen at or above
-- compaction_scan.below: an op below it of one of these rows is superseded. Bounded by the compactor's tracked rows.
CREATE TABLE tributary.compaction_scan_rows (
    group_id  bigint NOT NULL,
    row_key   text   NOT NULL,
    PRIMARY KEY (group_id, row_key)
);
