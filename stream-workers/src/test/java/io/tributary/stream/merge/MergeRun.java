package io.tributary.stream.merge;

import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.ResolvedDelete;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.RowsMessage;
import io.tributary.topics.messages.SnapshotRowsMessage;
import io.tributary.topics.messages.TableReady;
import io.tributary.topics.messages.TableTruncate;
import io.tributary.topics.messages.TopicMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** One partition's merge run over one input order, with what {@code rows} holds afterwards. */
final class MergeRun {

    final InMemoryMergeStore store = new InMemoryMergeStore();
    final List<RowsMessage> rows = new ArrayList<>();
    final List<String> drops = new ArrayList<>();
    private final MergeRules rules = new MergeRules(store, (message, reason) -> drops.add(reason + " " + message));

    static MergeRun of(List<? extends TopicMessage> inputs) {
        MergeRun run = new MergeRun();
        inputs.forEach(run::apply);
        return run;
    }

    List<RowsMessage> apply(TopicMessage input) {
        List<RowsMessage> output = input instanceof ChangesMessage change
            ? rules.apply(change) : rules.apply((SnapshotRowsMessage) input);
        rows.addAll(output);
        return output;
    }

    /** {@code rows} after compaction: the last value per row key; tombstones and truncations remove. */
    Map<RowKey, RowJson> compacted() {
        Map<RowKey, RowJson> state = new HashMap<>();
        for (RowsMessage message : rows) {
            if (message instanceof ResolvedRow row) {
                state.put(row.rowKey(), row.row());
            } else if (message instanceof ResolvedDelete delete) {
                state.remove(delete.rowKey());
            } else if (message instanceof TableTruncate truncate) {
                state.keySet().removeIf(key -> key.table().equals(truncate.table()));
            }
        }
        return state;
    }

    List<TableReady> ready() {
        return rows.stream().filter(TableReady.class::isInstance).map(TableReady.class::cast)
            .collect(Collectors.toList());
    }

    /** A compact description of an input order, for failure messages. */
    static String describe(List<? extends TopicMessage> inputs) {
        return inputs.stream().map(MergeRun::label).collect(Collectors.joining(" | "));
    }

    private static String label(TopicMessage message) {
        String text = message.toString();
        return text.length() > 90 ? text.substring(0, 90) + "..." : text;
    }
}
