package io.tributary.writer.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.syncrules.BucketRow;
import java.util.List;
import org.junit.jupiter.api.Test;

class MembershipsTest {

    @Test
    void membershipsRoundTripWithAwkwardCharacters() {
        List<BucketRow> rows = List.of(new BucketRow("by_user[\"u\\\"1\"]", "to\tdos", "id,\n1", "{}"),
            new BucketRow("global[]", "lists", "é", "{}"));

        assertThat(Memberships.decode(Memberships.encode(rows))).containsExactly(
            new Membership("by_user[\"u\\\"1\"]", "to\tdos", "id,\n1"), new Membership("global[]", "lists", "é"));
    }

    @Test
    void encodingEscapesOnlyQuotesBackslashesAndControlCharacters() {
        List<BucketRow> rows = List.of(new BucketRow("by_owner[\"u1\"]", "items", "42", "{}"),
            new BucketRow("b\\[\u0001]\n", "t\u001f", "é😀", "{}"));

        assertThat(Memberships.encode(rows)).isEqualTo("[[\"by_owner[\\\"u1\\\"]\",\"items\",\"42\"],"
            + "[\"b\\\\[\\u0001]\\n\",\"t\\u001F\",\"é😀\"]]");
    }

    @Test
    void anyValidEscapeDecodes() {
        assertThat(Memberships.decode("[[\"b\\u000a\",\"t\\u001f\",\"\\u00e9\"]]"))
            .containsExactly(new Membership("b\n", "t\u001f", "é"));
    }

    @Test
    void aBucketLongerThanJacksonsDefaultStringLimitRoundTrips() {
        String bucket = "by_note[\"" + "n".repeat(20_000_001) + "\"]";

        assertThat(Memberships.decode(Memberships.encode(List.of(new BucketRow(bucket, "notes", "1", "{}")))))
            .containsExactly(new Membership(bucket, "notes", "1"));
    }

    @Test
    void noMembershipsIsAnEmptyArray() {
        assertThat(Memberships.encode(List.of())).isEqualTo("[]");
        assertThat(Memberships.decode("[]")).isEmpty();
    }

    @Test
    void aCorruptValueIsRejected() {
        assertThatThrownBy(() -> Memberships.decode("[[\"b\",\"t\"]]")).isInstanceOf(IllegalArgumentException.class);
    }
}
