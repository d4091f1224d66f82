package io.tributary.launcher.config;

import java.util.function.Function;

/** How a config value is written and parsed; the parser throws IllegalArgumentException with the reason. */
enum ValueType {
    STRING(text -> text),
    INTEGER(text -> {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected an integer, got '" + text + "'");
        }
    }),
    BOOLEAN(text -> {
        switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true":
                return Boolean.TRUE;
            case "false":
                return Boolean.FALSE;
            default:
                throw new IllegalArgumentException("expected true or false, got '" + text + "'");
        }
    });

    private final Function<String, Object> parser;

    ValueType(Function<String, Object> parser) {
        this.parser = parser;
    }

    Object parse(String text) {
        return parser.apply(text);
    }
}
