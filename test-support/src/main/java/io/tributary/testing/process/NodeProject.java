package io.tributary.testing.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Node project that runs the real PowerSync client (the client tests' driver, the bench's initial-sync client),
 * installed where it runs: {@code package.json}, {@code package-lock.json} and its scripts are copied from the project
 * directory to the install directory and {@code npm ci} installs exactly the locked dependencies there. An install
 * whose lock file is unchanged is reused (a stamp file holds the hash of the files it was installed from); the
 * scripts are copied afresh every time.
 *
 * <p>Thread-safe: concurrent callers in one JVM install once.
 */
public final class NodeProject {

    private static final String STAMP = ".installed-from";
    private static final long INSTALL_TIMEOUT_MINUTES = 10;

    private final Path source;
    private final Path install;
    private final List<String> scripts;

    private NodeProject(Path source, Path install, List<String> scripts) {
        this.source = source;
        this.install = install;
        this.scripts = List.copyOf(scripts);
    }

    /**
     * The project of {@code source} installed into {@code install} (if it is not yet), with {@code scripts} (file
     * names in {@code source}) copied beside its dependencies.
     *
     * @throws IllegalStateException naming what to do when Node.js or npm is missing or the install fails
     */
    public static synchronized NodeProject installed(Path source, Path install, List<String> scripts) {
        NodeProject project = new NodeProject(source.toAbsolutePath(), install.toAbsolutePath(), scripts);
        project.install();
        return project;
    }

    /** The installed copy of script {@code name}, to run with {@code node}. */
    public Path script(String name) {
        if (!scripts.contains(name)) {
            throw new IllegalArgumentException("Not a script of the project " + source + ": " + name);
        }
        return install.resolve(name);
    }

    /** Where the dependencies are installed (the working directory of the driver). */
    public Path directory() {
        return install;
    }

    private void install() {
        try {
            Files.createDirectories(install);
            String hash = hashOfSources();
            Path stamp = install.resolve(STAMP);
            for (String file : scripts) {
                Files.copy(source.resolve(file), install.resolve(file), StandardCopyOption.REPLACE_EXISTING);
            }
            if (Files.isDirectory(install.resolve("node_modules")) && Files.exists(stamp)
                && Files.readString(stamp).equals(hash)) {
                return;
            }
            for (String file : List.of("package.json", "package-lock.json")) {
                Files.copy(source.resolve(file), install.resolve(file), StandardCopyOption.REPLACE_EXISTING);
            }
            Files.deleteIfExists(stamp);
            requireTool("node", "--version");
            requireTool("npm", "--version");
            Path log = install.resolve("npm-ci.log");
            Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund", "--loglevel=warn")
                .directory(install.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!npm.waitFor(INSTALL_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                npm.destroyForcibly();
                throw new IllegalStateException("npm ci in " + install + " did not finish within "
                    + INSTALL_TIMEOUT_MINUTES + " minutes (is the npm registry reachable?); its output: " + log);
            }
            if (npm.exitValue() != 0) {
                throw new IllegalStateException("npm ci in " + install + " failed with exit code " + npm.exitValue()
                    + " (installing " + source.resolve("package-lock.json") + " needs the npm registry, or a"
                    + " configured mirror):\n" + Files.readString(log));
            }
            Files.writeString(stamp, hash);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot install the Node project " + source + " into " + install, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while installing the Node project " + source, e);
        }
    }

    private static void requireTool(String tool, String versionFlag) throws InterruptedException {
        try {
            Process process = new ProcessBuilder(tool, versionFlag).redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            if (process.waitFor() != 0) {
                throw new IllegalStateException("`" + tool + " " + versionFlag + "` failed (exit code "
                    + process.exitValue() + "): the PowerSync client needs Node.js 20 or later and npm on the PATH");
            }
        } catch (IOException e) {
            throw new IllegalStateException("The PowerSync client runs on Node.js: install Node.js 20 or later with"
                + " npm and put `" + tool + "` on the PATH (" + e.getMessage() + ")", e);
        }
    }

    private String hashOfSources() throws IOException {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (String file : List.of("package.json", "package-lock.json")) {
                digest.update(file.getBytes(StandardCharsets.UTF_8));
                digest.update(Files.readAllBytes(source.resolve(file)));
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
