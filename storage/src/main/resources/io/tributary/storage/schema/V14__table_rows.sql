-- Per group, partition and source table: the group's writers applied rows of the table in that partition, the
-- first of them after the partition's seal of seen_after_epoch (-1 = before any seal), so the table has rows in
-- every checkpoint at an epoch k > seen_after_epoch. Written in the transaction that applies those rows. A
-- checkpoint at such an epoch is held while the table has no snapshot window at all (a table created or first
-- matched after its group was planned: its streamed rows would be published without its existing ones).
CREATE TABLE tributary.table_rows (
    group_id          bigint  NOT NULL REFERENCES tributary.sync_rules (group_id) ON DELETE CASCADE,
    partition         integer NOT NULL CHECK (partition >= 0),
    table_schema      text    NOT NULL,
    table_name        text    NOT NULL,
    seen_after_epoch  bigint  NOT NULL CHECK (seen_after_epoch >= -1),
    PRIMARY KEY (group_id, partition, table_schema, table_name)
);
