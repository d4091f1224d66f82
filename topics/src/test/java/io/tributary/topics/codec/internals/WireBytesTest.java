package io.tributary.topics.codec.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.tributary.testing.random.Seeds;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChunkDone;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.MarkerKey;
import io.tributary.topics.messages.MarkerKind;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.RecordKey;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TablePlan;
import io.tributary.topics.messages.TableReady;
import io.tributary.topics.messages.TableTruncate;
import io.tributary.topics.messages.TableWindowMarker;
import io.tributary.topics.messages.TaskKey;
import io.tributary.topics.messages.TaskPriority;
import io.tributary.topics.messages.TopicMessage;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Property: {@link ValueEncoder} and {@link KeyCodec} write exactly the bytes the Jackson generator wrote for the
 * same message or key ({@link JacksonValueEncoder}, {@link JacksonKeyEncoder}), for every value type and key form
 * and for strings with anything Jackson escapes or transcodes.
 */
class WireBytesTest {

    private static final int CASES = 20_000;
    private static final String[] PIECES = {
        "a", "Z", "0", " ", "_", ".", "/", "~", "\"", "\\", "\n", "\t", "\r", "\b", "\f", "\u0000", "\u001f",
        "\u007f", "\u0080", "\u00e9", "\u07ff", "\u0800", "\u4e2d", "\uffff", "\ud83d\ude00", "orders", "w1#3",
    };
    private static final String[] LONE_SURROGATES = {"\ud83d", "\ude00"};

    @Test
    void everyValueTypeEncodesToTheBytesOfTheJacksonGenerator() {
        long seed = Seeds.fromProperty("tributary.seed");
        Random random = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            TopicMessage message = message(random, i % 10);
            assertThat(ValueEncoder.encode(message))
                .as("seed %d, case %d: %s", seed, i, message)
                .isEqualTo(JacksonValueEncoder.encode(message));
        }
    }

    @Test
    void everyKeyFormEncodesToTheBytesOfTheJacksonGenerator() {
        long seed = Seeds.fromProperty("tributary.seed");
        Random random = new Random(seed);
        for (int i = 0; i < CASES; i++) {
            RecordKey key = key(random, i % 5);
            assertThat(KeyCodec.encode(key))
                .as("seed %d, case %d: %s", seed, i, key)
                .isEqualTo(JacksonKeyEncoder.encode(key));
        }
    }

    @Test
    void textsWithUnpairedSurrogatesEncodeAsTheJacksonGeneratorDoes() {
        for (String lone : LONE_SURROGATES) {
            TableId table = TableId.of("s" + lone, "t");
            RowJson row = RowJson.of("{\"a\":\"x" + lone + "\"}");
            for (TopicMessage message : List.of(
                    ChangeEvent.insert(table, KeyValues.of("[1]"), RowJson.of("{}"), Lsn.of(1), 0, 0),
                    ChangeEvent.insert(TableId.of("s", "t"), KeyValues.of("[1]"), row, Lsn.of(1), 0, 0))) {
                Throwable expectedFailure = catchThrowable(() -> JacksonValueEncoder.encode(message));
                if (expectedFailure == null) {
                    assertThat(ValueEncoder.encode(message)).isEqualTo(JacksonValueEncoder.encode(message));
                } else {
                    assertThat(catchThrowable(() -> ValueEncoder.encode(message)))
                        .isInstanceOf(expectedFailure.getClass());
                }
            }
        }
    }

    @Test
    void aSnapshotReusedAcrossRowsEncodesLikeAFreshOne() {
        PgSnapshot snapshot = PgSnapshot.parse("100:110:103,105");
        ChunkTask task = task("c#1", TableId.of("public", "orders"), 1);
        SnapshotRow first = SnapshotRow.of(task, KeyValues.of("[1]"), RowJson.of("{\"id\":1}"), snapshot);
        SnapshotRow other = SnapshotRow.of(task, KeyValues.of("[1]"), RowJson.of("{\"id\":1}"),
            PgSnapshot.parse("200:200:"));
        SnapshotRow again = SnapshotRow.of(task, KeyValues.of("[1]"), RowJson.of("{\"id\":1}"), snapshot);
        for (SnapshotRow row : List.of(first, first, other, again)) {
            assertThat(ValueEncoder.encode(row)).isEqualTo(JacksonValueEncoder.encode(row));
        }
    }

    private static TopicMessage message(Random random, int type) {
        TableId table = TableId.of(text(random), text(random));
        KeyValues pk = KeyValues.of("[" + random.nextInt(1000) + ",\"" + json(random) + "\"]");
        RowJson row = RowJson.of("{\"id\":" + random.nextLong() + ",\"v\":\"" + json(random) + "\"}");
        Lsn lsn = Lsn.of(random.nextLong() & Long.MAX_VALUE);
        long seq = random.nextLong() & Long.MAX_VALUE;
        long tx = random.nextInt(100) == 0 ? 0 : random.nextLong() & Long.MAX_VALUE;
        ChunkTask task = task(text(random), table, 1 + random.nextInt(Integer.MAX_VALUE));
        PgSnapshot snapshot = PgSnapshot.of(10, 20, random.nextBoolean() ? List.of() : List.of(12L, 15L));
        switch (type) {
            case 0:
                return random.nextBoolean() ? ChangeEvent.update(table, pk, row, lsn, seq, tx)
                    : ChangeEvent.delete(table, pk, lsn, seq, tx);
            case 1:
                return Barrier.of(seq, lsn);
            case 2:
                return TableWindowMarker.of(table, lsn, text(random));
            case 3:
                return TableTruncate.of(table, lsn, seq, tx);
            case 4:
                return random.nextBoolean() ? task : new ChunkTask(task.chunkId(), table,
                    new ChunkRange(Optional.empty(), random.nextBoolean() ? Optional.of(pk) : Optional.empty()),
                    task.attempt(), TaskPriority.ACTIVE_SNAPSHOT, text(random));
            case 5:
                return SnapshotRow.of(task, pk, row, snapshot);
            case 6:
                return ChunkDone.of(task, lsn, seq);
            case 7:
                return TablePlan.of(table, text(random), random.nextInt(Integer.MAX_VALUE));
            case 8:
                return random.nextBoolean() ? ResolvedRow.of(SnapshotRow.of(task, pk, row, snapshot))
                    : ResolvedRow.of(ChangeEvent.insert(table, pk, row, lsn, seq, tx));
            default:
                return TableReady.of(table, text(random), lsn);
        }
    }

    private static RecordKey key(Random random, int form) {
        TableId table = TableId.of(text(random), text(random));
        int partition = random.nextInt(Integer.MAX_VALUE);
        switch (form) {
            case 0:
                return RowKey.of(table, KeyValues.of("[" + random.nextInt() + ",\"" + json(random) + "\"]"));
            case 1:
                return MarkerKey.of(MarkerKind.BARRIER, partition);
            case 2:
                return MarkerKey.of(MarkerKind.TABLE_WINDOW, partition, table);
            case 3:
                return MarkerKey.of(MarkerKind.CHUNK_DONE, partition, text(random));
            default:
                return TaskKey.of(text(random));
        }
    }

    private static ChunkTask task(String chunkId, TableId table, int attempt) {
        return new ChunkTask(chunkId, table, ChunkRange.of(KeyValues.of("[1]"), KeyValues.of("[\"z\"]")), attempt,
            TaskPriority.REPROCESS_SNAPSHOT, "w1");
    }

    /** A non-empty string of random pieces, anything a string field may hold. */
    private static String text(Random random) {
        StringBuilder text = new StringBuilder();
        int pieces = 1 + random.nextInt(6);
        for (int i = 0; i < pieces; i++) {
            text.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return text.toString();
    }

    /** String content valid inside a JSON string literal of a row: no quote, backslash or control character. */
    private static String json(Random random) {
        return text(random).replaceAll("[\"\\\\\\u0000-\\u001f]", "q");
    }
}
