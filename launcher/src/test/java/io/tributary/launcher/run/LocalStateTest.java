package io.tributary.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's state directory is its own while it runs and gone after it, or after the next run if it crashed. */
class LocalStateTest {

    @TempDir
    Path parent;

    @Test
    void theDirectoryIsDeletedWithEverythingInItOnClose() throws Exception {
        Path directory;
        try (LocalState state = LocalState.claim(parent)) {
            directory = state.path();
            assertThat(directory.getParent()).isEqualTo(parent);
            assertThat(directory.getFileName().toString()).startsWith(LocalState.PREFIX);
            Path store = Files.createDirectories(directory.resolve("stream-workers/app/0_1/rocksdb/merge-state"));
            Files.writeString(store.resolve("000001.log"), "data");
        }

        assertThat(directory).doesNotExist();
    }

    @Test
    void aDirectoryLeftByACrashedProcessIsDeletedByTheNextRun() throws Exception {
        Path crashed = Files.createDirectory(parent.resolve(LocalState.PREFIX + "123"));
        Files.createFile(crashed.resolve(LocalState.LOCK_FILE));
        Files.writeString(Files.createDirectories(crashed.resolve("stream-workers/app/0_0")).resolve("f"), "x");

        try (LocalState state = LocalState.claim(parent)) {
            assertThat(crashed).doesNotExist();
            assertThat(state.path()).isDirectory();
        }
    }

    @Test
    void aLiveRunsDirectoryIsKeptAndStaysLocked() throws Exception {
        try (LocalState first = LocalState.claim(parent); LocalState second = LocalState.claim(parent);
             LocalState third = LocalState.claim(parent)) {
            assertThat(first.path()).isDirectory();
            assertThat(second.path()).isDirectory();
            assertThat(third.path()).isDirectory();
            assertThat(first.path()).isNotEqualTo(second.path());
        }
    }

    @Test
    void aDirectoryAnotherLiveProcessHoldsIsKept() throws Exception {
        Path held = Files.createDirectory(parent.resolve(LocalState.PREFIX + "789"));
        Path lockFile = Files.createFile(held.resolve(LocalState.LOCK_FILE));
        Path holder = Files.writeString(parent.resolve("Holder.java"), """
            import java.nio.channels.FileChannel;
            import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
            import java.nio.file.StandardOpenOption;
            public class Holder {
                public static void main(String[] args) throws Exception {
                    try (FileChannel c = FileChannel.open(Path.of(args[0]), StandardOpenOption.WRITE)) {
                        c.lock();
                        System.out.println("locked");
                        System.in.read();
                    }
                }
            }
            """);
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            holder.toString(), lockFile.toString()).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("locked");

            try (LocalState state = LocalState.claim(parent)) {
                assertThat(held).isDirectory();
            }
        } finally {
            process.getOutputStream().close();
            process.waitFor(10, TimeUnit.SECONDS);
            process.destroyForcibly();
        }
        try (LocalState state = LocalState.claim(parent)) {
            assertThat(held).doesNotExist();
        }
    }

    @Test
    void directoriesWithoutALockFileAreNotTouched() throws Exception {
        Path legacy = Files.createDirectory(parent.resolve(LocalState.PREFIX + "456"));
        Path other = Files.createDirectory(parent.resolve("unrelated"));

        try (LocalState state = LocalState.claim(parent)) {
            assertThat(legacy).isDirectory();
            assertThat(other).isDirectory();
        }
    }
}
