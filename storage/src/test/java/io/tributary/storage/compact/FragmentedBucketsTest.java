package io.tributary.storage.compact;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FragmentedBucketsTest {

    @Test
    void rewritesTheStrandedRowsByIdWhenTheSampleHoldsThemAll() {
        FragmentedBuckets.Stranded stranded = new FragmentedBuckets.Stranded("to\"dos", 2, List.of("1", "o'k"));

        assertThat(FragmentedBuckets.rewriteStatement(stranded))
            .isEqualTo("UPDATE \"to\"\"dos\" SET id = id WHERE id IN ('1', 'o''k');");
    }

    @Test
    void rewritesTheWholeTableWhenMoreRowsAreStrandedThanTheSampleHolds() {
        FragmentedBuckets.Stranded stranded = new FragmentedBuckets.Stranded("todos", 21, List.of("1", "2"));

        assertThat(FragmentedBuckets.rewriteStatement(stranded)).isEqualTo("UPDATE \"todos\" SET id = id;");
    }
}
