package io.tributary.chaos.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.chaos.check.BucketCheck.Bucket;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BucketCheckTest {

    private static final String RULES = """
        bucket_definitions:
          everything:
            data:
              - SELECT id, balance FROM accounts
        """;

    @Test
    void theReferenceKeepsNumericTextAndComputesChecksums() {
        Map<String, Bucket> expected = BucketCheck.expected(RULES, Map.of("public.accounts",
            Map.of("[1]", "{\"id\":1,\"balance\":\"1.50\"}")));

        assertThat(expected.get("everything[]").rows()).containsExactly(Map.entry("accounts/1",
            "{\"id\":1,\"balance\":\"1.50\"}"));
        assertThat(expected.get("everything[]").count()).isEqualTo(1);
    }

    @Test
    void equalBucketsHaveNoMismatch() {
        Map<String, Bucket> buckets = Map.of("b[]", new Bucket(Map.of("t/1", "{}"), 5, 1));

        assertThat(BucketCheck.compare(buckets, buckets)).isEmpty();
    }

    @Test
    void aMissingAnExtraAndAChangedRowAreEachReportedWithExpectedAndActual() {
        Map<String, Bucket> expected = Map.of("b[]", new Bucket(Map.of("t/1", "{\"v\":1}", "t/2", "{\"v\":2}"), 0, 2));
        Map<String, Bucket> served = Map.of("b[]", new Bucket(Map.of("t/2", "{\"v\":3}", "t/3", "{\"v\":4}"), 0, 2));

        assertThat(BucketCheck.compare(expected, served)).containsExactly(
            new Mismatch("buckets", "b[]/t/1", "{\"v\":1}", Mismatch.ABSENT),
            new Mismatch("buckets", "b[]/t/2", "{\"v\":2}", "{\"v\":3}"),
            new Mismatch("buckets", "b[]/t/3", Mismatch.ABSENT, "{\"v\":4}"));
    }

    @Test
    void aWrongChecksumWithEqualRowsIsReported() {
        Map<String, Bucket> expected = Map.of("b[]", new Bucket(Map.of("t/1", "{}"), 5, 1));
        Map<String, Bucket> served = Map.of("b[]", new Bucket(Map.of("t/1", "{}"), 6, 1));

        assertThat(BucketCheck.compare(expected, served)).extracting(Mismatch::key)
            .isEqualTo(List.of("b[] (checksum, count)"));
    }
}
