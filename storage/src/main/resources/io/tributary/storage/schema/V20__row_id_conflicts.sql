-- Per live group and source table: a data query of the group's rules reads the table, but its output id is not
-- the table's single-column primary key (a table created, or first matched by a wildcard, after the rules were
-- deployed and checked). Recorded by the snapshot planner before it opens the table's window; the group's
-- checkpoints are held while such a row exists. A later window of the table whose check passes deletes it
-- (`tributary resnapshot` once the table is fixed); a group deleted with its storage takes its rows along.
CREATE TABLE tributary.row_id_conflicts (
    group_id      bigint       NOT NULL REFERENCES tributary.sync_rules (group_id) ON DELETE CASCADE,
    table_schema  text         NOT NULL,
    table_name    text         NOT NULL,
    problem       text         NOT NULL,
    found_at      timestamptz  NOT NULL DEFAULT now(),
    PRIMARY KEY (group_id, table_schema, table_name)
);
