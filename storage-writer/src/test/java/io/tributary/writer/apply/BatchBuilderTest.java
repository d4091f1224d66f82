package io.tributary.writer.apply;

import static io.tributary.writer.apply.OpPlannerTest.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.syncrules.BucketRow;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TableReady;
import io.tributary.topics.messages.TableTruncate;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class BatchBuilderTest {

    private static final BucketRow U1 = new BucketRow("by_user[\"u1\"]", "todos", "t1", "{\"v\":1}");
    private static final BucketRow U2 = new BucketRow("by_user[\"u2\"]", "todos", "t1", "{\"v\":2}");
    private static final BucketRow U3 = new BucketRow("by_user[\"u3\"]", "todos", "t1", "{\"v\":3}");
    private static final DeadLetter LETTER = new DeadLetter(new ConsumerRecord<>("rows", 0, 1, new byte[0],
        new byte[0]), new IllegalArgumentException("poison"));

    @Test
    void severalRecordsOfAKeyReduceToTheLastInOrder() {
        BatchBuilder builder = new BatchBuilder(3, 100);
        builder.addRow(key("t1"), 10, List.of(U1));
        builder.addRow(key("t2"), 11, List.of());
        builder.addRow(key("t1"), 12, List.of(U2));
        builder.addDelete(key("t2"), 13);
        builder.addRow(key("t1"), 14, List.of(U3));

        PreparedBatch batch = builder.take();

        assertThat(batch.changes()).extracting(RowChange::key).containsExactly(key("t1"), key("t2"));
        assertThat(batch.changes().get(0).rows()).containsExactly(U3);
        assertThat(batch.changes().get(0).offset()).isEqualTo(14);
        assertThat(batch.changes().get(1).isAbsent()).isTrue();
        assertThat(batch.firstOffset()).isEqualTo(10);
        assertThat(batch.nextOffset()).isEqualTo(15);
        assertThat(batch.records()).isEqualTo(5);
    }

    @Test
    void aBarrierEndsTheBatch() {
        BatchBuilder builder = new BatchBuilder(0, 100);
        assertThat(builder.addRow(key("t1"), 0, List.of(U1))).isFalse();
        assertThat(builder.addBarrier(Barrier.of(4, Lsn.of(100)), 1)).isTrue();

        PreparedBatch batch = builder.take();

        assertThat(batch.barrier()).contains(Barrier.of(4, Lsn.of(100)));
        assertThat(batch.allocatesOps()).isTrue();
        assertThat(builder.isEmpty()).isTrue();
    }

    @Test
    void aBatchOfOnlyMarkersAllocatesNoOps() {
        BatchBuilder builder = new BatchBuilder(0, 100);
        builder.addTableReady(TableReady.of(TableId.of("public", "todos"), "w1", Lsn.of(5)), 7);
        builder.addSkipped(8, Optional.empty());
        builder.addBarrier(Barrier.of(1, Lsn.of(9)), 9);

        PreparedBatch batch = builder.take();

        assertThat(batch.allocatesOps()).isFalse();
        assertThat(batch.ready()).hasSize(1);
    }

    @Test
    void aTruncationEndsTheBatchSoLaterRowsAreNotReducedIntoIt() {
        BatchBuilder builder = new BatchBuilder(0, 100);
        builder.addRow(key("t1"), 0, List.of(U1));
        assertThat(builder.addTruncate(TableTruncate.of(TableId.of("public", "todos"), Lsn.of(3), 0, 1), 1))
            .isTrue();
        assertThatThrownBy(() -> builder.addRow(key("t1"), 2, List.of(U2))).isInstanceOf(IllegalStateException.class);

        assertThat(builder.take().truncate()).isPresent();
        builder.addRow(key("t1"), 2, List.of(U2));
        assertThat(builder.take().changes()).extracting(RowChange::offset).containsExactly(2L);
    }

    @Test
    void theBatchIsCompleteAtMaxRecords() {
        BatchBuilder builder = new BatchBuilder(0, 2);
        assertThat(builder.addRow(key("t1"), 0, List.of(U1))).isFalse();
        assertThat(builder.addSkipped(1, Optional.of(LETTER))).isTrue();

        PreparedBatch batch = builder.take();

        assertThat(batch.deadLetters()).containsExactly(LETTER);
        assertThat(batch.nextOffset()).isEqualTo(2);
        assertThat(batch.withoutDeadLetters().deadLetters()).isEmpty();
        assertThat(batch.withoutDeadLetters().changes()).isEqualTo(batch.changes());
        assertThat(batch.withoutDeadLetters().nextOffset()).isEqualTo(2);
    }

    @Test
    void offsetsMustIncrease() {
        BatchBuilder builder = new BatchBuilder(0, 10);
        builder.addRow(key("t1"), 5, List.of(U1));
        assertThatThrownBy(() -> builder.addRow(key("t1"), 5, List.of(U1)))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
