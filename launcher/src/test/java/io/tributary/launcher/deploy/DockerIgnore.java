package io.tributary.launcher.deploy;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;

/**
 * Docker's {@code .dockerignore} matching, as far as the repository's patterns need it: globs relative to the
 * build context, {@code **} for any folders (also none), and a pattern that matches a folder excludes all of it.
 */
final class DockerIgnore {

    private DockerIgnore() {
    }

    /** Whether {@code pattern} keeps {@code path} (relative to the context, with /) out of the build context. */
    static boolean excludes(String pattern, String path) {
        if (pattern.startsWith("!")) {
            return false;
        }
        String glob = pattern.replaceAll("^/+", "").replaceAll("/+$", "");
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + glob);
        PathMatcher atRoot = glob.startsWith("**/")
            ? FileSystems.getDefault().getPathMatcher("glob:" + glob.substring(3)) : matcher;
        for (Path prefix = Path.of(path); prefix != null; prefix = prefix.getParent()) {
            if (matcher.matches(prefix) || atRoot.matches(prefix)) {
                return true;
            }
        }
        return false;
    }
}
