package io.tributary.ingest.capture.internals;

import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Reads what capture needs from the records of the Debezium Postgres connector (3.6, pgoutput,
 * {@code provide.transaction.metadata=true}): their kind, and from their source offsets the 32-bit transaction id
 * and {@code lsn_commit}, the position Debezium records at each COMMIT (the end of the commit record, the same
 * position Postgres reports as the transaction's end and confirms on the slot). Stateless.
 */
final class DebeziumRecords {

    static final String TRANSACTION_TOPIC_SUFFIX = ".transaction";
    static final String HEARTBEAT_TOPIC_PREFIX = "__debezium-heartbeat";
    static final String OFFSET_LSN_COMMIT = "lsn_commit";
    static final String OFFSET_LSN = "lsn";
    static final String OFFSET_LSN_PROC = "lsn_proc";
    static final String OFFSET_TX_ID = "txId";

    private DebeziumRecords() {
    }

    static RecordKind kind(SourceRecord record) {
        String topic = record.topic();
        if (topic.startsWith(HEARTBEAT_TOPIC_PREFIX)) {
            return RecordKind.HEARTBEAT;
        }
        if (!(record.value() instanceof Struct value)) {
            return RecordKind.OTHER;
        }
        if (topic.endsWith(TRANSACTION_TOPIC_SUFFIX) && value.schema().field("status") != null) {
            String status = value.getString("status");
            if ("BEGIN".equals(status)) {
                return RecordKind.TX_BEGIN;
            }
            return "END".equals(status) ? RecordKind.TX_END : RecordKind.OTHER;
        }
        if (value.schema().field("op") == null) {
            return RecordKind.OTHER;
        }
        return "m".equals(value.getString("op")) ? RecordKind.MESSAGE : RecordKind.CHANGE;
    }

    /** The 32-bit transaction id in the record's source offset. */
    static long transactionId(SourceRecord record) {
        return number(record, OFFSET_TX_ID);
    }

    /** The {@code lsn_commit} of the record's source offset. */
    static long commitLsn(SourceRecord record) {
        return number(record, OFFSET_LSN_COMMIT);
    }

    private static long number(SourceRecord record, String key) {
        Map<String, ?> offset = record.sourceOffset();
        Object value = offset == null ? null : offset.get(key);
        if (!(value instanceof Number number)) {
            throw new IllegalStateException("Debezium record on " + record.topic() + " has no numeric '" + key
                + "' in its source offset " + offset);
        }
        return number.longValue();
    }
}
