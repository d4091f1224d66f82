package io.tributary.api.stream;

/** Postgres LSN text ({@code X/Y}, hexadecimal) as comparable numbers. */
final class Lsns {

    private Lsns() {
    }

    /** The 64-bit position of {@code lsn}. */
    static long parse(String lsn) {
        int slash = lsn.indexOf('/');
        if (slash <= 0) {
            throw new IllegalArgumentException("Not a Postgres LSN: " + lsn);
        }
        return (Long.parseLong(lsn.substring(0, slash), 16) << 32) | Long.parseLong(lsn.substring(slash + 1), 16);
    }
}
