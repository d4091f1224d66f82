package io.tributary.topics.messages;

/**
 * Where a resolved row version came from: the WAL stream ({@link StreamPosition}: commit LSN and sequence in the
 * transaction) or a snapshot chunk read ({@link SnapshotPosition}: chunk id and attempt).
 *
 * <p>{@link #toText()} is a compact, parseable text form for storage columns and logs: {@code s:<lsn>:<seq>} or
 * {@code c:<attempt>:<chunkId>} (the chunk id last, so it may contain any character).
 */
public sealed interface SourcePosition permits StreamPosition, SnapshotPosition {

    /** The compact text form, see the interface documentation. */
    String toText();

    /**
     * Parses {@link #toText()}.
     *
     * @throws IllegalArgumentException if {@code text} is not a position
     */
    static SourcePosition parse(String text) {
        if (text.startsWith("s:")) {
            int colon = text.indexOf(':', 2);
            if (colon > 2) {
                try {
                    return new StreamPosition(Lsn.parse(text.substring(2, colon)),
                        Long.parseLong(text.substring(colon + 1)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("Not a source position: '" + text + "'", e);
                }
            }
        } else if (text.startsWith("c:")) {
            int colon = text.indexOf(':', 2);
            if (colon > 2) {
                try {
                    return new SnapshotPosition(text.substring(colon + 1), Integer.parseInt(text.substring(2, colon)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("Not a source position: '" + text + "'", e);
                }
            }
        }
        throw new IllegalArgumentException("Not a source position (expected 's:<lsn>:<seq>' or"
            + " 'c:<attempt>:<chunkId>'): '" + text + "'");
    }
}
