-- Sync rules groups: one row per deployed sync rules version.
CREATE TABLE tributary.sync_rules (
    group_id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    content           text        NOT NULL,
    state             text        NOT NULL CHECK (state IN ('PROCESSING', 'ACTIVE', 'STOP', 'TERMINATED')),
    created_at        timestamptz NOT NULL DEFAULT now(),
    state_changed_at  timestamptz NOT NULL DEFAULT now(),
    cleared_at        timestamptz,
    -- The newest published checkpoint: every op with op_id <= checkpoint_op_id is final, and together they are
    -- the source state at checkpoint_lsn. NULL until the first checkpoint.
    checkpoint_op_id  bigint,
    checkpoint_lsn    pg_lsn,
    checkpoint_epoch  bigint,
    checkpoint_at     timestamptz
);
