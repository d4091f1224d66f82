package io.tributary.chaos.harness;

import java.util.Objects;

/**
 * A process that exited although nobody killed or stopped it: a crash of the pipeline itself.
 *
 * @param name     the process name
 * @param exitCode its exit code
 * @param logTail  the end of its output
 */
public record ProcessExit(String name, int exitCode, String logTail) {

    public ProcessExit {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(logTail, "logTail");
    }

    @Override
    public String toString() {
        return name + " exited with " + exitCode + " on its own:\n" + logTail;
    }
}
