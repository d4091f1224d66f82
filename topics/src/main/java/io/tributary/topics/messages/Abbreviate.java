package io.tributary.topics.messages;

/** Shortens untrusted text for error messages. */
final class Abbreviate {

    private static final int MAX = 80;

    private Abbreviate() {
    }

    static String text(String text) {
        return text.length() <= MAX ? "'" + text + "'" : "'" + text.substring(0, MAX) + "...' (" + text.length()
            + " chars)";
    }
}
