-- Write checkpoints of sync clients: a client that uploaded writes to the source asks for one, and its sync
-- stream reports it with the first checkpoint whose LSN is at or after the source's WAL position recorded here.
-- Ids come from one sequence, so a client's later write checkpoint has a larger id.
CREATE SEQUENCE tributary.write_checkpoint_seq AS bigint;

CREATE TABLE tributary.write_checkpoints (
    user_id           text        NOT NULL,  -- the token subject
    client_id         text        NOT NULL,  -- the client's id ('' when it sent none)
    write_checkpoint  bigint      NOT NULL,
    lsn               pg_lsn      NOT NULL,  -- the source's WAL position when it was created
    created_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, client_id, write_checkpoint)
);

-- The api processes read, once per published checkpoint, the write checkpoints it newly covers.
CREATE INDEX write_checkpoints_lsn ON tributary.write_checkpoints (lsn);
