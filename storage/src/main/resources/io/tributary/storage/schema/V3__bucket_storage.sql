-- Bucket storage, per sync rules group. bucket_data and current_data are partitioned by group, so clearing
-- a terminated group is a DROP of its partitions (never an unbounded DELETE).
--
-- Concurrency rule (the field's 40001 storms): a storage writer's batch transaction only touches rows of the
-- partitions of rows it owns (its keys in current_data, its partition_offsets / sealed_epochs /
-- table_readiness rows) and appends to bucket_data. Shared rows (sync_rules.checkpoint_*) are written by the
-- checkpointer in separate short transactions only.

-- The append-only log of bucket ops. op_id is global and increasing; a checkpoint covers every op <= its op_id.
CREATE TABLE tributary.bucket_data (
    group_id      bigint   NOT NULL,
    bucket        text     NOT NULL,
    op_id         bigint   NOT NULL,
    op            smallint NOT NULL CHECK (op IN (1, 2)),  -- 1 = PUT, 2 = REMOVE
    source_table  text     NOT NULL,  -- the output table name of the sync rules
    row_id        text     NOT NULL,
    checksum      bigint   NOT NULL,  -- unsigned 32-bit
    data          text,               -- canonical row JSON for PUT, NULL for REMOVE
    PRIMARY KEY (group_id, bucket, op_id)
) PARTITION BY LIST (group_id);

-- Per source row: the buckets it is in (to emit REMOVE when it leaves them) and where it came from.
-- Small on purpose: the full row lives in the rows topic.
CREATE TABLE tributary.current_data (
    group_id          bigint  NOT NULL,
    source_key        bytea   NOT NULL,  -- the record key of the row in the rows topic (table + primary key)
    buckets           text    NOT NULL,  -- JSON array of [bucket, output table, row id]
    source_partition  integer NOT NULL,  -- the partition of rows the row lives in
    source_offset     bigint  NOT NULL,  -- the offset of the record that set this state
    PRIMARY KEY (group_id, source_key)
) PARTITION BY LIST (group_id);

-- Per group and partition of rows: the next offset to consume (stored with the ops, in the same transaction),
-- the fencing token of the writer that owns the partition (a zombie with an older token cannot commit) and the
-- highest op_id the partition's writers allocated so far (what a seal records).
CREATE TABLE tributary.partition_offsets (
    group_id       bigint  NOT NULL REFERENCES tributary.sync_rules (group_id) ON DELETE CASCADE,
    partition      integer NOT NULL CHECK (partition >= 0),
    next_offset    bigint  NOT NULL DEFAULT 0,
    fencing_token  bigint  NOT NULL DEFAULT 0,
    max_op_id      bigint  NOT NULL DEFAULT 0,
    PRIMARY KEY (group_id, partition)
);

-- Per group and partition: the epochs sealed there, one row per barrier passed. A row (g, p, k) means every
-- record of p before barrier k is committed, and max_op_id was p's highest op_id at that point. The
-- checkpointer prunes epochs below the published checkpoint. No foreign key on purpose: every writer inserts
-- here from its batch transaction, and a foreign key check would lock the shared sync_rules row.
CREATE TABLE tributary.sealed_epochs (
    group_id    bigint      NOT NULL,
    partition   integer     NOT NULL CHECK (partition >= 0),
    epoch       bigint      NOT NULL CHECK (epoch >= 0),
    lsn         pg_lsn      NOT NULL,
    max_op_id   bigint      NOT NULL,
    sealed_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (group_id, partition, epoch)
);

-- Per group, partition and source table: the table's snapshot window window_id is complete in that partition,
-- consistent from high_watermark on. ready_after_epoch is the partition's sealed epoch when the marker was read
-- (-1 = none), so the table is ready for a checkpoint at epoch k iff ready_after_epoch < k.
CREATE TABLE tributary.table_readiness (
    group_id           bigint  NOT NULL REFERENCES tributary.sync_rules (group_id) ON DELETE CASCADE,
    partition          integer NOT NULL CHECK (partition >= 0),
    table_schema       text    NOT NULL,
    table_name         text    NOT NULL,
    window_id          text    NOT NULL,
    high_watermark     pg_lsn  NOT NULL,
    ready_after_epoch  bigint  NOT NULL,
    PRIMARY KEY (group_id, partition, table_schema, table_name)
);

-- CACHE 1 is required, not a tuning knob: with it, an id handed out after another nextval() returned is larger,
-- which the aligned-barrier checkpoint argument relies on. Per-session caches would break that order.
CREATE SEQUENCE tributary.op_id_seq AS bigint CACHE 1;
