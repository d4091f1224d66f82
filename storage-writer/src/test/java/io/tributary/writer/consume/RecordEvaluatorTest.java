package io.tributary.writer.consume;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.syncrules.ParameterRow;
import io.tributary.syncrules.SyncRules;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.StreamPosition;
import io.tributary.topics.messages.TableId;
import io.tributary.writer.apply.BatchBuilder;
import io.tributary.writer.apply.DeadLetter;
import io.tributary.writer.apply.PreparedBatch;
import io.tributary.writer.apply.RowChange;
import io.tributary.writer.apply.SourceKey;
import io.tributary.writer.internals.WriterCounters;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * A row record of {@code rows} becomes exactly the change its parsed tree gives: bucket rows, PUT ops with their
 * checksums and memberships, whether the row text is canonical (read without a tree) or not.
 */
class RecordEvaluatorTest {

    private static final SyncRules RULES = SyncRules.parse("""
        bucket_definitions:
          by_owner:
            parameters: SELECT request.user_id() AS owner
            data:
              - SELECT * FROM items WHERE owner = bucket.owner
              - SELECT id, title AS heading FROM items WHERE owner = bucket.owner AND n > 2
        """);
    /** Parses rows as the rules do: non-integers as exact decimals, trailing zeros kept. */
    private static final ObjectMapper TREE = JsonMapper.builder()
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
        .build();

    private final RecordEvaluator evaluator = new RecordEvaluator(RULES, new WriterCounters());

    @Test
    void rowRecordsBecomeTheChangesOfTheirTrees() throws Exception {
        List<String> rows = List.of(
            "{\"id\":1,\"owner\":\"u1\",\"title\":\"a \\\"b\\\" é 😀\",\"n\":3,\"d\":1.50,\"j\":{\"k\":[null]}}",
            "{\"id\":\"x\",\"owner\":\"u\\n2\",\"title\":\"t\",\"n\":1}",
            "{\"id\": 2, \"owner\": \"u1\", \"title\": \"spaced\", \"n\": 9}",
            "{\"id\":3,\"owner\":\"\\u0075\\u0031\",\"title\":\"escaped\",\"n\":1e1}",
            "{\"id\":4,\"owner\":\"u1\",\"owner\":\"u2\",\"n\":5}");
        for (int i = 0; i < rows.size(); i++) {
            String json = rows.get(i);
            ResolvedRow row = new ResolvedRow(TableId.of("public", "items"), KeyValues.of("[" + i + "]"),
                RowJson.of(json), StreamPosition.of(Lsn.of(100 + i), 0));
            ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("rows", 0, i,
                TopicCodec.ROWS.encodeKey(row, 0), TopicCodec.ROWS.encodeValue(row));
            BatchBuilder builder = new BatchBuilder(0, 1);

            assertThat(evaluator.add(builder, record)).isTrue();

            RowChange expected = RowChange.of(SourceKey.of(record.key()), i,
                RULES.evaluate("public.items", (ObjectNode) TREE.readTree(json)).rows());
            assertThat(builder.take().changes()).as(json).containsExactly(expected);
        }
    }

    @Test
    void aRowOfATableAParameterQueryReadsCarriesItsParameterRows() {
        SyncRules rules = SyncRules.parse("""
            bucket_definitions:
              list_members:
                parameters: SELECT list_id FROM list_members WHERE user_id = request.user_id()
                data:
                  - SELECT * FROM todos WHERE list_id = bucket.list_id
            """);
        ResolvedRow row = new ResolvedRow(TableId.of("public", "list_members"), KeyValues.of("[\"m1\"]"),
            RowJson.of("{\"id\":\"m1\",\"list_id\":\"l1\",\"user_id\":\"u1\"}"),
            StreamPosition.of(Lsn.of(100), 0));
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("rows", 0, 0,
            TopicCodec.ROWS.encodeKey(row, 0), TopicCodec.ROWS.encodeValue(row));
        BatchBuilder builder = new BatchBuilder(0, 1);

        new RecordEvaluator(rules, new WriterCounters()).add(builder, record);

        assertThat(builder.take().changes()).singleElement().satisfies(change -> {
            assertThat(change.rows()).isEmpty();
            assertThat(change.parameters()).containsExactly(
                new ParameterRow("[\"list_members\",0,\"u1\"]", "{\"list_id\":\"l1\"}"));
        });
    }

    @Test
    void aPoisonRecordIsConsumedAsANoOpAndItsBatchCarriesItsDeadLetter() {
        ConsumerRecord<byte[], byte[]> poison = new ConsumerRecord<>("rows", 0, 7,
            "not a key".getBytes(StandardCharsets.UTF_8), "{not json".getBytes(StandardCharsets.UTF_8));
        BatchBuilder builder = new BatchBuilder(0, 1);

        assertThat(evaluator.add(builder, poison)).isTrue();

        PreparedBatch batch = builder.take();
        assertThat(batch.changes()).isEmpty();
        assertThat(batch.nextOffset()).isEqualTo(8);
        assertThat(batch.deadLetters()).extracting(DeadLetter::record).containsExactly(poison);
    }

    @Test
    void aRowThatIsNotJsonInAValidEnvelopeIsConsumedAsANoOpAndDeadLettered() {
        ResolvedRow row = new ResolvedRow(TableId.of("public", "items"), KeyValues.of("[1]"),
            RowJson.ofUtf8("{\"id\":1,\"owner\" \"u1\"}".getBytes(StandardCharsets.UTF_8)),
            StreamPosition.of(Lsn.of(100), 0));
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("rows", 0, 3,
            TopicCodec.ROWS.encodeKey(row, 0), TopicCodec.ROWS.encodeValue(row));
        BatchBuilder builder = new BatchBuilder(0, 1);

        assertThat(evaluator.add(builder, record)).isTrue();

        PreparedBatch batch = builder.take();
        assertThat(batch.changes()).isEmpty();
        assertThat(batch.deadLetters()).extracting(DeadLetter::record).containsExactly(record);
    }
}
