package io.tributary.ingest.capture;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.StreamPosition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code changes} as the merge takes it in: per partition, an event at or below the partition's highest
 * {@code (LSN, seq)} so far is a duplicate and dropped; the rest are accepted. Also checks the barrier contract on
 * what is accepted: an accepted event lies after every barrier whose LSN is below its commit LSN and before every
 * barrier whose LSN covers it, so each epoch holds whole transactions. Test support.
 */
final class MergeView {

    private final List<ChangeEvent> accepted = new ArrayList<>();
    private final List<String> violations = new ArrayList<>();

    private MergeView() {
    }

    /** The view of {@code received} (every partition, each in offset order). */
    static MergeView of(List<Received> received) {
        MergeView view = new MergeView();
        Map<Integer, List<Received>> byPartition = new HashMap<>();
        for (Received r : received) {
            byPartition.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(r);
        }
        byPartition.forEach(view::take);
        return view;
    }

    private void take(int partition, List<Received> records) {
        StreamPosition highest = null;
        Barrier last = null;
        List<ChangeEvent> sinceBarrier = new ArrayList<>();
        for (Received r : records) {
            if (r.isBarrier()) {
                Barrier barrier = r.barrier();
                for (ChangeEvent event : sinceBarrier) {
                    if (event.lsn().compareTo(barrier.lsn()) > 0) {
                        violations.add("partition " + partition + ": " + event.position() + " (tx " + event.txId()
                            + ") lies before " + barrier + " at offset " + r.offset() + ", which does not cover it");
                    }
                }
                sinceBarrier.clear();
                last = barrier;
            } else if (r.isChange()) {
                ChangeEvent event = r.change();
                if (highest != null && event.position().compareTo(highest) <= 0) {
                    continue;
                }
                highest = event.position();
                accepted.add(event);
                sinceBarrier.add(event);
                if (last != null && event.lsn().compareTo(last.lsn()) <= 0) {
                    violations.add("partition " + partition + ": " + event.position() + " at offset " + r.offset()
                        + " lies after " + last + ", which covers it");
                }
            }
        }
    }

    /** The events the merge accepts, per partition in offset order. */
    List<ChangeEvent> accepted() {
        return accepted;
    }

    /** Where an epoch does not hold whole transactions; empty when the contract holds. */
    List<String> violations() {
        return violations;
    }
}
