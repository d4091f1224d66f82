package io.tributary.chaos.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.chaos.check.BucketCheck.Bucket;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SqlBucketsTest {

    private static final Map<String, Set<String>> EXPECTED = Map.of(
        "all_accounts[]", Set.of("accounts/1", "accounts/2"),
        "by_owner[\"u1\"]", Set.of("items/7"));

    @Test
    void theSameRowsInTheSameBucketsHaveNoMismatch() {
        assertThat(SqlBuckets.compare(EXPECTED, Map.of(
            "all_accounts[]", Set.of("accounts/2", "accounts/1"),
            "by_owner[\"u1\"]", Set.of("items/7")))).isEmpty();
    }

    @Test
    void aMissingRowIsAMismatch() {
        assertThat(SqlBuckets.compare(EXPECTED, Map.of(
            "all_accounts[]", Set.of("accounts/1"),
            "by_owner[\"u1\"]", Set.of("items/7")))).singleElement().satisfies(m -> {
                assertThat(m.check()).isEqualTo("buckets-sql");
                assertThat(m.key()).isEqualTo("all_accounts[]/accounts/2");
                assertThat(m.actual()).isEqualTo(Mismatch.ABSENT);
            });
    }

    @Test
    void aRowInTheWrongBucketIsTwoMismatches() {
        assertThat(SqlBuckets.compare(EXPECTED, Map.of(
            "all_accounts[]", Set.of("accounts/1", "accounts/2"),
            "by_owner[\"u2\"]", Set.of("items/7")))).extracting(Mismatch::key)
            .containsExactly("by_owner[\"u1\"]/items/7", "by_owner[\"u2\"]/items/7");
    }

    @Test
    void servedBucketsOfOtherDefinitionsAndEmptyBucketsAreLeftOut() {
        Map<String, Set<String>> served = SqlBuckets.served(Map.of(
            "all_accounts[]", new Bucket(Map.of("accounts/1", "{}"), 0, 1),
            "by_owner[\"u3\"]", new Bucket(Map.of(), 0, 2),
            "extra[]", new Bucket(Map.of("items/1", "{}"), 0, 1)));

        assertThat(served).containsExactly(Map.entry("all_accounts[]", Set.of("accounts/1")));
    }
}
