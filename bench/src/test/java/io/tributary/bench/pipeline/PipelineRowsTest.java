package io.tributary.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class PipelineRowsTest {

    @Test
    void theReadsEndAtTheFirstLineWithEveryTableRead() {
        String output = String.join("\n",
            "Deployed sync rules as group 1",
            "[  12s] snapshot 0/2 tables, 16667/~50000 rows | group 1 PROCESSING, no checkpoint yet",
            "[  28s] snapshot 1/2 tables, 33333/~50000 rows (8k rows/s) | group 1 PROCESSING, no checkpoint yet",
            "[  30s] snapshot 2/2 tables, 50000/~50000 rows (8k rows/s) | group 1 PROCESSING, no checkpoint yet",
            "[  33s] snapshot 2/2 tables, 50000/~50000 rows | group 1 ACTIVE, checkpoint 0/8A385A0 (op 50000)");

        assertThat(PipelineRows.snapshotReadSeconds(output)).contains(30L);
    }

    @Test
    void noSuchLineWhileATableIsUnread() {
        assertThat(PipelineRows.snapshotReadSeconds("[  12s] snapshot 0/1 tables, 0/~50000 rows"))
            .isEqualTo(Optional.empty());
    }
}
