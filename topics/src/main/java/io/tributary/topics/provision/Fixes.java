package io.tributary.topics.provision;

import io.tributary.topics.TopicSpec;

/** How to resolve each kind of {@link TopicMismatch}, for people reading the error at start-up. */
final class Fixes {

    private Fixes() {
    }

    static String partitions(TopicSpec spec, int found) {
        String topic = spec.name();
        switch (spec.role()) {
            case CHANGES:
            case SNAPSHOT_ROWS:
            case ROWS:
                return "changes, snapshot-rows and rows are co-partitioned and must all have the layout's partition"
                    + " count. If all three exist with " + found + " partitions, configure " + found + " partitions;"
                    + " otherwise stop the pipeline and delete and re-create '" + topic + "' with "
                    + spec.partitions() + " partitions (and rebuild what was derived from it). Do not add partitions"
                    + " in place: that moves existing keys to other partitions and breaks co-partitioning.";
            case SNAPSHOT_TASKS:
                return "snapshot-tasks has one partition range per task priority (" + spec.partitions()
                    + " = 2 x taskPartitionsPerPriority). Configure taskPartitionsPerPriority = found / 2 if " + found
                    + " is even, or, with the planner and snapshot workers stopped, delete '" + topic
                    + "' so it is re-created (pending chunk tasks must then be re-planned).";
            case DEAD_LETTERS:
                return "configure deadLetterPartitions = " + found + ", or add partitions: kafka-topics.sh"
                    + " --bootstrap-server <bootstrap> --alter --topic " + topic + " --partitions "
                    + spec.partitions() + " (only if " + found + " < " + spec.partitions() + ").";
            case INGEST_OFFSETS:
                return "Debezium's offset store must have exactly 1 partition: with ingest stopped, re-create '"
                    + topic + "' with 1 partition and cleanup.policy=compact (ingest then resumes as its snapshot"
                    + " mode says for a connector without stored offsets).";
            default:
                throw new IllegalArgumentException("Unknown topic role " + spec.role());
        }
    }

    static String cleanupPolicy(TopicSpec spec) {
        String expected = spec.role().cleanupPolicy();
        return "kafka-configs.sh --bootstrap-server <bootstrap> --alter --entity-type topics --entity-name "
            + spec.name() + " --add-config cleanup.policy=" + expected + " (records the old policy already removed"
            + " are gone: if any were, re-create the topic and rebuild it).";
    }
}
