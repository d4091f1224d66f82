package io.tributary.syncrules.internals.yaml;

import io.tributary.syncrules.Edition;
import java.util.List;
import java.util.Objects;

/**
 * A sync rules document as written in the YAML, before its SQL is compiled.
 *
 * @param definitions the bucket definitions in document order
 * @param edition     the output edition ({@code config: edition:}), {@link Edition#LEGACY} when not given
 */
public record RulesDocument(List<DefinitionSource> definitions, Edition edition) {

    public RulesDocument {
        definitions = List.copyOf(definitions);
        Objects.requireNonNull(edition, "edition");
    }
}
