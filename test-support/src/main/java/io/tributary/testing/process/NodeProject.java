package io.tributary.client.driver;

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
 * The Node project of the client driver, installed where the tests run it: {@code package.json},
 * {@code package-lock.json} and the driver script are copied from the project directory (system property
 * {@code client.node.project}, {@code src/test/node}) to the install directory ({@code client.node.install},
 * {@code target/node}) and {@code npm ci} installs exactly the locked dependencies there. An install whose lock
 * file is unchanged is reused (a stamp file holds the hash of the files it was installed from).
 *
 * <p>Thread-safe: concurrent callers in one JVM install once.
 */
public final class NodeProject {

    private static final List<String> FILES = List.of("package.json", "package-lock.json", "driver.mjs");
    private static final String STAMP = ".installed-from";
    private static final long INSTALL_TIMEOUT_MINUTES = 10;

    private final Path source;
    private final Path install;

    private NodeProject(Path source, Path install) {
        this.source = source;
        this.install = install;
    }

    /** The project named by the system properties the build sets, installed if it is not yet. */
    public static synchronized NodeProject installed() {
        NodeProject project = new NodeProject(directory("client.node.project", "src/test/node"),
            directory("client.node.install", "target/node"));
        project.install();
        return project;
    }

    /** The driver script to run with {@code node}. */
    public Path driver() {
        return install.resolve("driver.mjs");
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
            for (String file : List.of("driver.mjs")) {
                Files.copy(source.resolve(file), install.resolve(file), StandardCopyOption.REPLACE_EXISTING);
            }
            if (Files.isDirectory(install.resolve("node_modules")) && Files.exists(stamp)
                && Files.readString(stamp).equals(hash)) {
                return;
            }
            for (String file : FILES) {
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
                    + " (the client tests need the npm registry, or a configured mirror, to install "
                    + source.resolve("package-lock.json") + "):\n" + Files.readString(log));
            }
            Files.writeString(stamp, hash);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot install the client driver's Node project into " + install, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while installing the client driver's Node project", e);
        }
    }

    private static void requireTool(String tool, String versionFlag) throws InterruptedException {
        try {
            Process process = new ProcessBuilder(tool, versionFlag).redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            if (process.waitFor() != 0) {
                throw new IllegalStateException("`" + tool + " " + versionFlag + "` failed (exit code "
                    + process.exitValue() + "): the client tests need Node.js 20 or later and npm on the PATH");
            }
        } catch (IOException e) {
            throw new IllegalStateException("The client tests run the PowerSync client on Node.js: install Node.js "
                + "20 or later with npm and put `" + tool + "` on the PATH (" + e.getMessage() + ")", e);
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

    private static Path directory(String property, String fallback) {
        return Path.of(System.getProperty(property, fallback)).toAbsolutePath();
    }
}
