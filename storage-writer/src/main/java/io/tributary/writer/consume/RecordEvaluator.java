package io.tributary.writer.consume;

import io.tributary.syncrules.EvaluationResult;
import io.tributary.syncrules.ParameterRow;
import io.tributary.syncrules.SyncRules;
import io.tributary.topics.codec.MessageFormatException;
import io.tributary.topics.codec.RecordPosition;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ResolvedDelete;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowsMessage;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TableReady;
import io.tributary.topics.messages.TableTruncate;
import io.tributary.writer.apply.BatchBuilder;
import io.tributary.writer.apply.DeadLetter;
import io.tributary.writer.apply.SourceKey;
import io.tributary.writer.internals.WriterCounters;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes a record of {@code rows}, evaluates the sync rules on rows (their bucket rows and, for tables parameter
 * queries read, their parameter rows) and adds the outcome to a partition's
 * {@link BatchBuilder}. A record that cannot be decoded, or a row the rules cannot evaluate at all (not a JSON
 * object), is poison: it is consumed as a no-op, its batch carries it to the dead-letter topic, and processing
 * continues. Rows the rules select but cannot emit (e.g. a null id) are counted and logged; the row's other
 * buckets still apply.
 *
 * <p>Thread-safe if its parts are (rules and counters are); used by poll threads.
 */
final class RecordEvaluator {

    private static final Logger LOG = LoggerFactory.getLogger(RecordEvaluator.class);

    private final SyncRules rules;
    private final WriterCounters counters;
    /** {@code schema.table} of each table seen, the name the rules take, built once per table. */
    private final Map<TableId, String> tableNames = new ConcurrentHashMap<>();

    RecordEvaluator(SyncRules rules, WriterCounters counters) {
        this.rules = rules;
        this.counters = counters;
    }

    /**
     * Adds {@code record} to {@code builder}.
     *
     * @return whether the builder's batch is now complete
     */
    boolean add(BatchBuilder builder, ConsumerRecord<byte[], byte[]> record) {
        long offset = record.offset();
        try {
            RowsMessage message = TopicCodec.ROWS.decode(record);
            if (message instanceof ResolvedRow row) {
                String table = tableNames.computeIfAbsent(row.table(),
                    t -> t.schema() + "." + t.name());
                if (!rules.reads(table)) {
                    return builder.addSkipped(offset, Optional.empty());
                }
                EvaluationResult result = rules.evaluate(table, row.row().unsafeUtf8());
                if (result.hasErrors()) {
                    counters.evaluationErrors(result.errors().size());
                    LOG.warn("{}-{}@{}: {}", record.topic(), record.partition(), offset, result.errors());
                }
                List<ParameterRow> parameters = rules.readsParameters(table)
                    ? rules.parameterRows(table, row.row().unsafeUtf8()) : List.of();
                return builder.addRow(row.table(), key(record), offset, result.rows(), parameters);
            } else if (message instanceof ResolvedDelete) {
                return builder.addDelete(key(record), offset);
            } else if (message instanceof Barrier barrier) {
                return builder.addBarrier(barrier, offset);
            } else if (message instanceof TableReady ready) {
                return builder.addTableReady(ready, offset);
            } else if (message instanceof TableTruncate truncate) {
                return builder.addTruncate(truncate, offset);
            }
            throw new IllegalStateException("Unknown rows message " + message.getClass().getName());
        } catch (MessageFormatException | IllegalArgumentException e) {
            return builder.addSkipped(offset, Optional.of(new DeadLetter(record, e)));
        }
    }

    private static SourceKey key(ConsumerRecord<byte[], byte[]> record) {
        if (record.key() == null || record.key().length == 0) {
            throw new MessageFormatException(RecordPosition.of(record),
                "row record without key", null);
        }
        return SourceKey.ofOwned(record.key());
    }
}
