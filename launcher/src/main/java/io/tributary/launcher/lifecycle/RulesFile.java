package io.tributary.launcher.lifecycle;

import io.tributary.syncrules.SyncRules;
import io.tributary.syncrules.SyncRulesException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** A sync rules file read and validated, with every problem reported as {@code FILE:LINE:COLUMN: message}. */
public final class RulesFile {

    /** The file cannot be read or its rules are invalid; the message says where and what. */
    public static final class InvalidRulesException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InvalidRulesException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private RulesFile() {
    }

    /**
     * Reads and validates a sync rules file.
     *
     * @return the rules text, valid
     * @throws InvalidRulesException naming the file, and the line and column of every problem
     */
    public static String read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InvalidRulesException("Cannot read sync rules file " + file + ": " + e.getMessage(), e);
        }
        try {
            SyncRules.parse(text);
        } catch (SyncRulesException e) {
            StringBuilder message = new StringBuilder("Invalid sync rules in " + file + ":");
            e.problems().forEach(problem -> message.append(System.lineSeparator()).append("  ").append(file)
                .append(':').append(problem.line()).append(':').append(problem.column()).append(": ")
                .append(problem.message()));
            throw new InvalidRulesException(message.toString(), e);
        }
        return text;
    }
}
