package io.tributary.chaos.services;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One incarnation of a server's operating system process, its output appended to a log file. {@link #kill()}
 * is {@code kill -9} of the process and every descendant it has, as when a machine or container dies.
 * Thread-safe.
 */
final class ServerProcess {

    private static final Logger LOG = LoggerFactory.getLogger(ServerProcess.class);

    private final String name;
    private final Process process;
    private final Path log;

    private ServerProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** Starts {@code command}, appending its output to {@code log}. */
    static ServerProcess start(String name, List<String> command, Path log) {
        try {
            Files.createDirectories(log.getParent());
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            return new ServerProcess(name, process, log);
        } catch (IOException e) {
            throw new ServiceException(name + ": cannot start " + command, e);
        }
    }

    /**
     * Starts {@code command} and waits until {@code answers} holds, logging how long it took.
     *
     * @param what the server, for messages, e.g. {@code Kafka at 127.0.0.1:9092}
     * @throws ServiceException if it does not answer within {@code timeout} or exits first (it is killed then;
     *                          the message ends with the log's tail)
     */
    static ServerProcess startAndAwait(String name, List<String> command, Path log, String what, Duration timeout,
                                       BooleanSupplier answers) {
        long started = System.nanoTime();
        ServerProcess server = start(name, command, log);
        try {
            Await.until(what + " ready", timeout, answers, () -> !server.isAlive());
        } catch (ServiceException e) {
            server.kill();
            throw new ServiceException(e.getMessage() + "; log tail:\n" + server.logTail(30), e);
        }
        LOG.info("{} ready in {} ms ({})", what, (System.nanoTime() - started) / 1_000_000, server);
        return server;
    }

    /** Runs {@code command} to completion within {@code timeout}, appending output to {@code log}. */
    static void run(String name, List<String> command, Path log, Duration timeout) {
        ServerProcess step = start(name, command, log);
        if (!step.awaitExit(timeout)) {
            step.kill();
            throw new ServiceException(name + ": " + command + " did not finish within " + timeout + "; see " + log);
        }
        if (step.process.exitValue() != 0) {
            throw new ServiceException(name + ": " + command + " exited with " + step.process.exitValue()
                + ": " + step.logTail(20));
        }
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Sends {@code SIGTERM}. */
    void terminate() {
        process.destroy();
    }

    /** {@code kill -9} of the process and all its descendants; returns once all are gone. */
    void kill() {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
        awaitExit(Duration.ofSeconds(30));
        for (ProcessHandle descendant : descendants) {
            try {
                descendant.onExit().get(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                throw new ServiceException(name + ": process " + descendant.pid() + " survived kill -9", e);
            }
        }
    }

    /** Waits up to {@code timeout} for the process to exit after a stop signal; kills it if it has not. */
    void awaitExitOrKill(Duration timeout, String what) {
        if (!awaitExit(timeout)) {
            LOG.warn("{} did not stop within {}: killing it", what, timeout);
            kill();
        }
    }

    boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The last {@code lines} lines of the log (of every incarnation sharing it). */
    String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    @Override
    public String toString() {
        return name + "(pid " + process.pid() + (process.isAlive() ? "" : ", exited") + ")";
    }
}
