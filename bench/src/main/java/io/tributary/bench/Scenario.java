package io.tributary.bench;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The scenario families a bench run can select ({@code --only}), by letter or by name. */
enum Scenario {
    BASELINES("B", "baselines"),
    SNAPSHOT("A", "snapshot"),
    REPLAY("C", "replay"),
    WRITER("W", "writer"),
    DIRECT("X", "direct"),
    DEBEZIUM("DBZ", "debezium"),
    REMOTE("R", "remote"),
    TENANTS("M", "tenants"),
    PROCESSES("P", "processes"),
    BLOATED("E", "bloated"),
    LINEARITY("L", "linearity"),
    CATCH_UP("D", "catch-up"),
    STREAMING("S", "streaming"),
    STREAMS("N", "streams"),
    INITIAL_SYNC("I", "initial-sync"),
    TPCB("T", "tpcb");

    private final String letter;
    private final String word;

    Scenario(String letter, String word) {
        this.letter = letter;
        this.word = word;
    }

    /** Every accepted name, for help and errors. */
    static String names() {
        return Stream.of(values()).map(s -> s.letter + "|" + s.word).collect(Collectors.joining(", "));
    }

    /**
     * The selected scenarios: {@code only} (all when empty), minus C and E2 when {@code skipReplay}, minus D and S
     * when {@code skipStreaming}.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    static Set<Scenario> select(List<String> only, boolean skipReplay, boolean skipStreaming) {
        EnumSet<Scenario> selected = only.isEmpty() ? EnumSet.allOf(Scenario.class) : EnumSet.noneOf(Scenario.class);
        for (String name : only) {
            selected.add(parse(name.trim()));
        }
        if (skipReplay) {
            selected.remove(REPLAY);
        }
        if (skipStreaming) {
            selected.remove(CATCH_UP);
            selected.remove(STREAMING);
        }
        return selected;
    }

    private static Scenario parse(String name) {
        for (Scenario scenario : values()) {
            if (scenario.letter.equalsIgnoreCase(name) || scenario.word.equalsIgnoreCase(name)
                || scenario.name().equalsIgnoreCase(name.replace('-', '_'))) {
                return scenario;
            }
        }
        throw new IllegalArgumentException("unknown scenario '" + name.toLowerCase(Locale.ROOT) + "'; one of "
            + names());
    }
}
