package io.tributary.launcher.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local state directory of one {@code run} (the stream workers' RocksDB stores): a fresh
 * {@value #PREFIX}* directory under a parent (the system's temporary directory), locked by this process while it
 * runs and deleted when it closes. The stores are rebuilt from their changelogs at every start, so nothing in it
 * outlives the process.
 *
 * <p>A process killed before it could close leaves its directory behind; the next {@code run} on the machine
 * deletes every {@value #PREFIX}* directory whose lock no live process holds. (Without this, every restart left a
 * directory of RocksDB files in {@code /tmp}: 1,292 of them, 2.6 GB, on the development machine.) Directories
 * without a lock file, left by older versions, are not touched.
 *
 * <p>Not thread-safe; {@link #close()} is idempotent.
 */
public final class LocalState implements AutoCloseable {

    /** Name prefix of state directories. */
    static final String PREFIX = "tributary-state";
    /** The lock file held by the owning process. */
    static final String LOCK_FILE = ".tributary.lock";

    private static final Logger LOG = LoggerFactory.getLogger(LocalState.class);
    /**
     * The directories this JVM holds. A sweep never opens their lock files: closing any descriptor of a file drops
     * every POSIX lock the process holds on it, so probing our own lock would release it.
     */
    private static final Set<Path> OWNED = ConcurrentHashMap.newKeySet();

    private final Path directory;
    /** Holds the directory's lock until it is closed. */
    private final FileChannel channel;
    private boolean closed;

    private LocalState(Path directory, FileChannel channel) {
        this.directory = directory;
        this.channel = channel;
    }

    /** A new state directory under the system's temporary directory. */
    public static LocalState claim() {
        return claim(Path.of(System.getProperty("java.io.tmpdir")));
    }

    /**
     * A new state directory under {@code parent}, after deleting the stale ones there.
     *
     * @throws UncheckedIOException if it cannot be created or locked
     */
    static LocalState claim(Path parent) {
        int swept = sweep(parent);
        if (swept > 0) {
            LOG.info("Deleted {} state directories in {} left by processes that did not shut down", swept, parent);
        }
        Path directory;
        try {
            directory = Files.createTempDirectory(parent, PREFIX);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a state directory in " + parent
                + ": make it writable or set -Djava.io.tmpdir to a writable directory", e);
        }
        FileChannel channel = null;
        try {
            channel = FileChannel.open(directory.resolve(LOCK_FILE), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
            if (channel.tryLock() == null) {
                throw new IOException("locked by another process");
            }
            OWNED.add(directory);
            return new LocalState(directory, channel);
        } catch (IOException e) {
            closeQuietly(channel);
            deleteQuietly(directory);
            throw new UncheckedIOException("Cannot lock the state directory " + directory, e);
        }
    }

    /** The directory. */
    public Path path() {
        return directory;
    }

    /** Releases the lock (closing its channel does) and deletes the directory. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeQuietly(channel);
        deleteQuietly(directory);
        OWNED.remove(directory);
    }

    /** Deletes the {@value #PREFIX}* directories in {@code parent} with a lock file nobody holds; returns how many. */
    private static int sweep(Path parent) {
        List<Path> candidates = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(parent, PREFIX + "*")) {
            entries.forEach(candidates::add);
        } catch (IOException e) {
            LOG.debug("Not looking for stale state directories in {}: {}", parent, e.toString());
            return 0;
        }
        int swept = 0;
        for (Path candidate : candidates) {
            if (isAbandoned(candidate) && deleteQuietly(candidate)) {
                swept++;
            }
        }
        return swept;
    }

    private static boolean isAbandoned(Path directory) {
        Path lockFile = directory.resolve(LOCK_FILE);
        if (OWNED.contains(directory) || !Files.isRegularFile(lockFile)) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                return false;
            }
            lock.release();
            return true;
        } catch (OverlappingFileLockException e) {
            return false;
        } catch (IOException e) {
            LOG.debug("Not deleting {}: {}", directory, e.toString());
            return false;
        }
    }

    private static boolean deleteQuietly(Path directory) {
        try {
            Files.walkFileTree(directory, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                    if (failure != null) {
                        throw failure;
                    }
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
            return true;
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException e) {
            LOG.warn("Could not delete the state directory {}: {}", directory, e.toString());
            return false;
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            LOG.debug("Closing a lock file failed: {}", e.toString());
        }
    }
}
