-- The Kafka log a group's stored offsets refer to: the cluster id and the topic id of rows when its first writer
-- started. Offsets, seals and replay targets mean nothing on another cluster or another incarnation of the topic
-- (deleted and created again, a broker that lost its data), so every writer start compares them with what Kafka
-- reports and stops on a mismatch instead of waiting at offsets that do not exist.
CREATE TABLE tributary.group_kafka_logs (
    group_id    bigint      PRIMARY KEY REFERENCES tributary.sync_rules (group_id) ON DELETE CASCADE,
    topic       text        NOT NULL,
    cluster_id  text        NOT NULL,
    topic_id    text        NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now()
);

-- The rows logs that were rebuilt by snapshot because a group's log was lost: the recovery opens new snapshot
-- windows for every table once per log, whichever process runs it and however often.
CREATE TABLE tributary.kafka_log_rebuilds (
    cluster_id text        NOT NULL,
    topic_id   text        NOT NULL,
    topic      text        NOT NULL,
    rebuilt_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (cluster_id, topic_id)
);
