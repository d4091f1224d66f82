package io.tributary.stream.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.TableId;
import org.apache.kafka.common.utils.Bytes;
import org.junit.jupiter.api.Test;

class StoreKeysTest {

    private static final TableId ITEMS = TableId.of("public", "items");
    private static final KeyValues PK = KeyValues.of("[\"a\",1]");

    @Test
    void keysOfOneTableGenerationLieInsideItsRange() {
        Bytes key = StoreKeys.key(ITEMS, 3, PK);

        assertThat(key.compareTo(StoreKeys.keyRangeStart(ITEMS, 3))).isPositive();
        assertThat(key.compareTo(StoreKeys.keyRangeEnd(ITEMS, 3))).isNegative();
    }

    @Test
    void keysOfTheNextGenerationLieOutsideTheRange() {
        Bytes next = StoreKeys.key(ITEMS, 4, PK);

        assertThat(next.compareTo(StoreKeys.keyRangeEnd(ITEMS, 3))).isPositive();
    }

    @Test
    void tablesWhoseNamesConcatenateAlikeHaveDisjointKeys() {
        TableId ab = TableId.of("a", "bc");
        TableId abc = TableId.of("ab", "c");
        Bytes key = StoreKeys.key(ab, 1, PK);

        assertThat(key).isNotEqualTo(StoreKeys.key(abc, 1, PK));
        boolean inOtherRange = key.compareTo(StoreKeys.keyRangeStart(abc, 1)) >= 0
            && key.compareTo(StoreKeys.keyRangeEnd(abc, 1)) < 0;
        assertThat(inOtherRange).isFalse();
    }

    @Test
    void releaseKeyNamesItsTableAndGeneration() {
        TableId odd = TableId.of("sch.ema", "na\"me");

        assertThat(StoreKeys.parseRelease(StoreKeys.release(odd, 77))).isEqualTo(new StoreKeys.Release(odd, 77));
    }

    @Test
    void chunkKeyNamesItsTableAndChunk() {
        TableId odd = TableId.of("sch.ema", "na\"me");

        assertThat(StoreKeys.parseChunk(StoreKeys.chunk(odd, "w#é1")))
            .isEqualTo(new StoreKeys.ChunkRef(odd, "w#é1"));
        assertThat(StoreKeys.chunk(odd, "w#1").get()).startsWith(StoreKeys.chunkPrefix(odd).get());
        assertThat(StoreKeys.chunkPrefix(odd).get()).startsWith(StoreKeys.chunkPrefix().get());
    }

    @Test
    void aKeyOfAnotherKindIsNotAChunkKey() {
        assertThatThrownBy(() -> StoreKeys.parseChunk(StoreKeys.table(TableId.of("a", "b"))))
            .isInstanceOf(StateFormatException.class);
    }

    @Test
    void chunkKeysOfDifferentTablesDiffer() {
        assertThat(StoreKeys.chunk(TableId.of("a", "b"), "c1")).isNotEqualTo(StoreKeys.chunk(TableId.of("a", "bc"),
            "1"));
    }
}
