-- Snapshot progress: written by the snapshot planner (ingest) and the snapshot workers, read by the storage
-- writers' checkpointer (the newest window of each table) and the launcher's status command.
--
-- One row per source table and snapshot window (a table is re-snapshotted in a new window). Lifecycle:
--   PLANNING --(chunks stored, plan and tasks published)--> SNAPSHOTTING --(every chunk done)--> DONE
--   PLANNING or SNAPSHOTTING --(permanent error: missing table, permission, unencodable value)--> FAILED
-- A window whose chunks are all done while still PLANNING goes straight to DONE when the planner finishes it.
-- Every update is a short READ COMMITTED transaction of its own (never inside a long read transaction).
CREATE TABLE tributary.source_tables (
    table_schema     text        NOT NULL,
    table_name       text        NOT NULL,
    window_id        text        NOT NULL,
    state            text        NOT NULL CHECK (state IN ('PLANNING', 'SNAPSHOTTING', 'DONE', 'FAILED')),
    priority         text        NOT NULL CHECK (priority IN ('ACTIVE_SNAPSHOT', 'REPROCESS_SNAPSHOT')),
    marker_lsn       pg_lsn,                                        -- LSN of the window marker emitted in the WAL
    chunks_planned   integer     NOT NULL DEFAULT 0 CHECK (chunks_planned >= 0),
    chunks_done      integer     NOT NULL DEFAULT 0 CHECK (chunks_done >= 0),
    rows_done        bigint      NOT NULL DEFAULT 0 CHECK (rows_done >= 0),
    rows_estimated   bigint      NOT NULL DEFAULT 0 CHECK (rows_estimated >= 0),
    high_watermark   pg_lsn,                                        -- max high watermark of the done chunks
    error            text,                                          -- why the window FAILED
    started_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    finished_at      timestamptz,                                   -- when it became DONE or FAILED
    PRIMARY KEY (table_schema, table_name, window_id),
    CHECK ((state = 'FAILED') = (error IS NOT NULL))
);
-- At most one window of a table is in progress, whoever plans it.
CREATE UNIQUE INDEX source_tables_one_open_window ON tributary.source_tables (table_schema, table_name)
    WHERE state IN ('PLANNING', 'SNAPSHOTTING');

-- One row per chunk: a primary key range [lo, hi) of one window. Lifecycle: PLANNED -> ASSIGNED (each claim
-- by a worker is a new attempt: attempt = attempt + 1) -> DONE. attempt is 0 until the first claim.
CREATE TABLE tributary.snapshot_chunks (
    chunk_id         text        PRIMARY KEY,                       -- <window_id>#<chunk_index>
    table_schema     text        NOT NULL,
    table_name       text        NOT NULL,
    window_id        text        NOT NULL,
    chunk_index      integer     NOT NULL CHECK (chunk_index >= 0),
    lo               text,       -- canonical JSON array of key values, inclusive; NULL = unbounded
    hi               text,       -- canonical JSON array of key values, exclusive; NULL = unbounded
    state            text        NOT NULL CHECK (state IN ('PLANNED', 'ASSIGNED', 'DONE')),
    attempt          integer     NOT NULL DEFAULT 0 CHECK (attempt >= 0),
    priority         text        NOT NULL CHECK (priority IN ('ACTIVE_SNAPSHOT', 'REPROCESS_SNAPSHOT')),
    row_count        bigint      CHECK (row_count >= 0),
    high_watermark   pg_lsn,
    updated_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (table_schema, table_name, window_id, chunk_index),
    FOREIGN KEY (table_schema, table_name, window_id)
        REFERENCES tributary.source_tables (table_schema, table_name, window_id) ON DELETE CASCADE,
    CHECK ((state = 'DONE') = (row_count IS NOT NULL AND high_watermark IS NOT NULL))
);
CREATE INDEX snapshot_chunks_pending ON tributary.snapshot_chunks (table_schema, table_name, window_id)
    WHERE state <> 'DONE';
