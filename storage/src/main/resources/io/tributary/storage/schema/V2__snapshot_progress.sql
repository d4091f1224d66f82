-- Snapshot progress, written by the planner (ingest) and the snapshot workers' completion markers.
-- One row per source table and snapshot window (a table is re-snapshotted in a new window).
CREATE TABLE tributary.source_tables (
    table_schema     text        NOT NULL,
    table_name       text        NOT NULL,
    window_id        text        NOT NULL,
    state            text        NOT NULL CHECK (state IN ('PLANNING', 'SNAPSHOTTING', 'DONE', 'FAILED')),
    chunks_planned   integer     NOT NULL DEFAULT 0,
    chunks_done      integer     NOT NULL DEFAULT 0,
    rows_done        bigint      NOT NULL DEFAULT 0,
    rows_estimated   bigint      NOT NULL DEFAULT 0,
    high_watermark   pg_lsn,
    error            text,
    started_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_schema, table_name, window_id)
);

CREATE TABLE tributary.snapshot_chunks (
    chunk_id         text        PRIMARY KEY,
    table_schema     text        NOT NULL,
    table_name       text        NOT NULL,
    window_id        text        NOT NULL,
    chunk_index      integer     NOT NULL,
    lo               text,       -- canonical JSON array of key values, inclusive; NULL = unbounded
    hi               text,       -- canonical JSON array of key values, exclusive; NULL = unbounded
    state            text        NOT NULL CHECK (state IN ('PLANNED', 'ASSIGNED', 'DONE')),
    attempt          integer     NOT NULL DEFAULT 1,
    priority         text        NOT NULL,
    row_count        bigint,
    high_watermark   pg_lsn,
    updated_at       timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (table_schema, table_name, window_id)
        REFERENCES tributary.source_tables (table_schema, table_name, window_id)
);
CREATE INDEX snapshot_chunks_by_table ON tributary.snapshot_chunks (table_schema, table_name, window_id, state);
