package io.tributary.ingest.capture.internals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangeOp;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TableTruncate;
import io.tributary.topics.messages.TableWindowMarker;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TransactionBufferTest {

    private static final TableId ITEMS = TableId.of("public", "items");
    private static final Lsn COMMIT = Lsn.parse("0/16B3748");

    @Test
    void itemsBecomeMessagesWithTheCommitLsnAndSeqInWalOrder() {
        TransactionBuffer buffer = new TransactionBuffer();
        buffer.begin(742);
        buffer.add(row(ChangeOp.INSERT, "[1]"));
        buffer.add(new PendingChange.Window(ITEMS, "w", false));
        buffer.add(row(ChangeOp.DELETE, "[2]"));
        buffer.add(new PendingChange.Truncate(ITEMS));

        List<ChangesMessage> messages = buffer.end(742, COMMIT, (5L << 32) + 742);

        assertThat(messages).containsExactly(
            ChangeEvent.insert(ITEMS, KeyValues.of("[1]"), RowJson.of("{\"id\":1}"), COMMIT, 0, (5L << 32) + 742),
            TableWindowMarker.of(ITEMS, COMMIT, "w"),
            ChangeEvent.delete(ITEMS, KeyValues.of("[2]"), COMMIT, 1, (5L << 32) + 742),
            TableTruncate.of(ITEMS, COMMIT, 2, (5L << 32) + 742));
        assertThat(buffer.isOpen()).isFalse();
    }

    @Test
    void aWindowReplacingTheTableRowsIsATruncationOfTheTableThenItsMarker() {
        TransactionBuffer buffer = new TransactionBuffer();
        buffer.begin(9);
        buffer.add(new PendingChange.Window(ITEMS, "w2", true));

        assertThat(buffer.end(9, COMMIT, 9)).containsExactly(TableTruncate.of(ITEMS, COMMIT, 0, 9),
            TableWindowMarker.of(ITEMS, COMMIT, "w2"));
    }

    @Test
    void anEmptyTransactionGivesNoMessages() {
        TransactionBuffer buffer = new TransactionBuffer();
        buffer.begin(7);

        assertThat(buffer.end(7, COMMIT, 7)).isEmpty();
    }

    @Test
    void seqStartsOverInTheNextTransaction() {
        TransactionBuffer buffer = new TransactionBuffer();
        buffer.begin(7);
        buffer.add(row(ChangeOp.INSERT, "[1]"));
        buffer.end(7, COMMIT, 7);
        buffer.begin(8);
        buffer.add(row(ChangeOp.INSERT, "[2]"));

        assertThat(((ChangeEvent) buffer.end(8, COMMIT, 8).get(0)).seq()).isZero();
    }

    @Test
    void aChangeOutsideATransactionIsABug() {
        assertThatThrownBy(() -> new TransactionBuffer().add(row(ChangeOp.INSERT, "[1]")))
            .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aBeginWhileATransactionIsOpenIsABug() {
        TransactionBuffer buffer = new TransactionBuffer();
        buffer.begin(7);

        assertThatThrownBy(() -> buffer.begin(8)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anEndOfAnotherTransactionIsABug() {
        TransactionBuffer buffer = new TransactionBuffer();
        buffer.begin(7);

        assertThatThrownBy(() -> buffer.end(8, COMMIT, 8)).isInstanceOf(IllegalStateException.class);
    }

    private static PendingChange row(ChangeOp op, String pk) {
        Optional<RowJson> row = op == ChangeOp.DELETE ? Optional.empty()
            : Optional.of(RowJson.of("{\"id\":" + pk.substring(1, pk.length() - 1) + "}"));
        return new PendingChange.Row(ITEMS, op, KeyValues.of(pk), row);
    }
}
