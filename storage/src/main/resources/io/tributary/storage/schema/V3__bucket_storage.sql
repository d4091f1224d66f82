-- Bucket storage, per sync rules group. bucket_data and current_data are partitioned by group, so clearing
-- a terminated group is a DROP of its partitions (never an unbounded DELETE).

-- The append-only log of bucket ops. op_id is global and increasing; a checkpoint covers every op <= its op_id.
CREATE TABLE tributary.bucket_data (
    group_id      bigint   NOT NULL,
    bucket        text     NOT NULL,
    op_id         bigint   NOT NULL,
    op            smallint NOT NULL,  -- 1 = PUT, 2 = REMOVE
    source_table  text     NOT NULL,  -- the output table name of the sync rules
    row_id        text     NOT NULL,
    checksum      bigint   NOT NULL,  -- unsigned 32-bit
    data          text,               -- canonical row JSON for PUT, NULL for REMOVE
    PRIMARY KEY (group_id, bucket, op_id)
) PARTITION BY LIST (group_id);

-- Per source row: the buckets it is in (to emit REMOVE when it leaves them) and where it came from.
-- Small on purpose: the full row lives in the rows topic.
CREATE TABLE tributary.current_data (
    group_id          bigint NOT NULL,
    source_key        bytea  NOT NULL,  -- the record key of the row in the rows topic (table + primary key)
    buckets           text   NOT NULL,  -- JSON array of [bucket, output table, row id]
    source_partition  integer NOT NULL,
    source_offset     bigint NOT NULL,
    PRIMARY KEY (group_id, source_key)
) PARTITION BY LIST (group_id);

-- Per group and partition of rows: the next offset to consume (stored with the ops, in the same transaction)
-- and the fencing token of the writer that owns the partition; a zombie with an older token cannot commit.
CREATE TABLE tributary.partition_offsets (
    group_id       bigint  NOT NULL REFERENCES tributary.sync_rules (group_id) ON DELETE CASCADE,
    partition      integer NOT NULL,
    next_offset    bigint  NOT NULL DEFAULT 0,
    fencing_token  bigint  NOT NULL DEFAULT 0,
    PRIMARY KEY (group_id, partition)
);

-- Per group and partition: the newest epoch whose ops are all committed (barrier passed).
CREATE TABLE tributary.sealed_epochs (
    group_id    bigint  NOT NULL REFERENCES tributary.sync_rules (group_id) ON DELETE CASCADE,
    partition   integer NOT NULL,
    epoch       bigint  NOT NULL,
    lsn         pg_lsn  NOT NULL,
    PRIMARY KEY (group_id, partition)
);

-- Per group, partition and source table: the snapshot of the table is complete in that partition up to hw.
CREATE TABLE tributary.table_readiness (
    group_id      bigint  NOT NULL REFERENCES tributary.sync_rules (group_id) ON DELETE CASCADE,
    partition     integer NOT NULL,
    table_schema  text    NOT NULL,
    table_name    text    NOT NULL,
    high_watermark pg_lsn NOT NULL,
    PRIMARY KEY (group_id, partition, table_schema, table_name)
);

CREATE SEQUENCE tributary.op_id_seq AS bigint CACHE 1;
