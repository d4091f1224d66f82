package io.tributary.api.protocol;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The request's {@code streams} field: which of the rules' streams a client syncs. Each bucket definition of the
 * sync rules is a stream subscribed by default, as PowerSync treats {@code bucket_definitions}: with
 * {@code include_defaults} (the default) a client gets every definition's buckets; without it, only those of the
 * definitions it names in {@code subscriptions}. Subscription parameters and priority overrides belong to sync
 * streams, which these rules do not define: a subscription that carries them is refused rather than served as if it
 * did not.
 *
 * @param includeDefaults whether every definition is synced (PowerSync's {@code include_defaults}, default true)
 * @param subscribed      the stream names of the request's {@code subscriptions}, in request order, each once
 */
public record StreamSelection(boolean includeDefaults, List<String> subscribed) {

    /** What a request without {@code streams} asks for: every definition. */
    public static final StreamSelection DEFAULTS = new StreamSelection(true, List.of());

    public StreamSelection {
        subscribed = List.copyOf(new LinkedHashSet<>(Objects.requireNonNull(subscribed, "subscribed")));
    }

    /** Whether buckets of {@code definition} are synced. */
    public boolean includes(String definition) {
        return includeDefaults || subscribed.contains(definition);
    }

    /** The definitions of {@code definitions} (rule order) this selection syncs: the checkpoint's streams. */
    public List<String> streams(List<String> definitions) {
        List<String> streams = new ArrayList<>();
        for (String definition : definitions) {
            if (includes(definition)) {
                streams.add(definition);
            }
        }
        return streams;
    }

    /**
     * Why the selection cannot be served by rules of {@code definitions}: a subscription naming a stream the rules
     * do not define. Empty when it can.
     */
    public Optional<String> problemWith(List<String> definitions) {
        Set<String> unknown = new LinkedHashSet<>(subscribed);
        unknown.removeAll(definitions);
        if (unknown.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("streams.subscriptions names " + String.join(", ", unknown) + ", which the sync rules do"
            + " not define (their streams are the bucket definitions: " + String.join(", ", definitions) + ");"
            + " subscribe to one of those, or deploy rules that define it");
    }
}
