package io.tributary.topics.codec.internals;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.topics.messages.PgSnapshot;
import java.util.List;
import org.junit.jupiter.api.Test;

class SnapshotTextTest {

    @Test
    void eachTextDecodesToItsOwnSnapshotWhateverWasDecodedBefore() {
        assertThat(SnapshotText.parse("100:110:103,105")).isEqualTo(PgSnapshot.of(100, 110, List.of(103L, 105L)));
        assertThat(SnapshotText.parse("100:110:103,105")).isEqualTo(PgSnapshot.parse("100:110:103,105"));
        assertThat(SnapshotText.parse("200:200:")).isEqualTo(PgSnapshot.parse("200:200:"));
        assertThat(SnapshotText.parse("100:110:103,105")).isEqualTo(PgSnapshot.parse("100:110:103,105"));
    }

    @Test
    void eachSnapshotEncodesToItsOwnTextWhateverWasEncodedBefore() {
        PgSnapshot first = PgSnapshot.parse("100:110:103,105");
        PgSnapshot second = PgSnapshot.parse("200:200:");
        assertThat(new String(SnapshotText.quoted(first))).isEqualTo("\"100:110:103,105\"");
        assertThat(new String(SnapshotText.quoted(first))).isEqualTo("\"100:110:103,105\"");
        assertThat(new String(SnapshotText.quoted(second))).isEqualTo("\"200:200:\"");
        assertThat(new String(SnapshotText.quoted(first))).isEqualTo("\"100:110:103,105\"");
    }
}
