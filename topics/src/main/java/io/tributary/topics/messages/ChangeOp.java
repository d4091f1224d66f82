package io.tributary.topics.messages;

/** What a change event did to one row. A table truncation is its own message, {@link TableTruncate}. */
public enum ChangeOp {

    /** A new row; the event carries the full new row. */
    INSERT("insert"),

    /** A changed row; the event carries the full new row. */
    UPDATE("update"),

    /** A removed row; the event carries only the key. */
    DELETE("delete");

    private final String wireName;

    ChangeOp(String wireName) {
        this.wireName = wireName;
    }

    /** The name in message envelopes. */
    public String wireName() {
        return wireName;
    }

    /**
     * The operation with envelope name {@code wireName}.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    public static ChangeOp fromWireName(String wireName) {
        switch (wireName) {
            case "insert":
                return INSERT;
            case "update":
                return UPDATE;
            case "delete":
                return DELETE;
            default:
                throw new IllegalArgumentException("Unknown change operation '" + wireName + "'");
        }
    }
}
