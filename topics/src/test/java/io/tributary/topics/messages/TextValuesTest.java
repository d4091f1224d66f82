package io.tributary.topics.messages;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TextValuesTest {

    @Test
    void rowMustBeAnObjectText() {
        assertThat(RowJson.of("{\"id\":1}").json()).isEqualTo("{\"id\":1}");
        for (String bad : new String[] {"", "{", "[1]", " {}", "{} ", "null"}) {
            assertThatThrownBy(() -> RowJson.of(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void keyMustBeANonEmptyArrayText() {
        assertThat(KeyValues.of("[1,\"a\"]").json()).isEqualTo("[1,\"a\"]");
        for (String bad : new String[] {"", "[]", "[", "{\"a\":1}", " [1]", "1"}) {
            assertThatThrownBy(() -> KeyValues.of(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void sourcePositionsRoundTripTheirTextForm() {
        SourcePosition stream = StreamPosition.of(Lsn.parse("16/B374D848"), 3);
        SourcePosition chunk = SnapshotPosition.of("w1#7:odd:id", 2);
        assertThat(stream.toText()).isEqualTo("s:16/B374D848:3");
        assertThat(chunk.toText()).isEqualTo("c:2:w1#7:odd:id");
        assertThat(SourcePosition.parse(stream.toText())).isEqualTo(stream);
        assertThat(SourcePosition.parse(chunk.toText())).isEqualTo(chunk);
    }

    @Test
    void sourcePositionRejectsOtherText() {
        for (String bad : new String[] {"", "s:", "s:1/2", "s:x:1", "c:0:id", "c:1:", "x:1:2"}) {
            assertThatThrownBy(() -> SourcePosition.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void streamPositionsOrderByLsnThenSeq() {
        assertThat(StreamPosition.of(Lsn.parse("0/10"), 5)).isLessThan(StreamPosition.of(Lsn.parse("0/11"), 0));
        assertThat(StreamPosition.of(Lsn.parse("0/10"), 1)).isLessThan(StreamPosition.of(Lsn.parse("0/10"), 2));
    }
}
