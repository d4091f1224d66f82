package io.tributary.launcher.logging;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import java.util.Objects;
import org.slf4j.LoggerFactory;

/**
 * The {@code %role} of the log pattern: the role this process runs ({@code ingest}, {@code storage}, ...), or
 * the command ({@code status}, {@code deploy}, ...) for one-shot commands; {@code -} before either is known.
 * Process-wide (every thread logs the same role). Thread-safe.
 */
public final class RoleConverter extends ClassicConverter {

    private static volatile String current = "-";

    /**
     * Names the process's role (or command) in every log line from now on: {@code %role} in the text pattern, the
     * logger context's property {@code role} in JSON lines.
     */
    public static void set(String role) {
        current = Objects.requireNonNull(role, "role");
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
            context.putProperty("role", role);
        }
    }

    /** The role logged now. */
    public static String current() {
        return current;
    }

    @Override
    public String convert(ILoggingEvent event) {
        return current;
    }
}
