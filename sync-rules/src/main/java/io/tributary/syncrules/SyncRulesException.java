package io.tributary.syncrules;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Sync rules that cannot be deployed: YAML syntax errors, unknown keys, unsupported or invalid SQL.
 * Carries every problem found (at least one), sorted by position; the message lists them one per line as
 * {@code line L, column C: message}.
 */
public final class SyncRulesException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<Problem> problems;

    public SyncRulesException(List<Problem> problems) {
        super(format(problems));
        this.problems = problems.stream().sorted().collect(Collectors.toUnmodifiableList());
    }

    /** The problems, sorted by line and column; never empty. */
    public List<Problem> problems() {
        return problems;
    }

    private static String format(List<Problem> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a SyncRulesException needs at least one problem");
        }
        return problems.stream().sorted().map(Problem::toString).collect(Collectors.joining("\n"));
    }
}
