package io.tributary.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Renders the charts of a results table from an existing markdown file (a bench result file, or a page quoting
 * results tables):
 *
 * <pre>
 * java -cp bench/target/classes io.tributary.bench.report.RenderCharts FILE.md [--table N] [--out DIR]
 *     [--name PREFIX] [--title TITLE]
 * </pre>
 *
 * It reads the {@code N}-th results table of the file (1 by default) and writes its three charts,
 * {@code PREFIX-rate.svg}, {@code PREFIX-cpu.svg} and {@code PREFIX-roles.svg} (the last two left out when no row
 * has CPU figures, or a breakdown by role, as {@link BenchCharts#write} does; {@code PREFIX} is the file's name
 * without {@code .md} by default) into {@code DIR} (the file's folder by default), titled {@code TITLE} (the
 * prefix by default). Exit code 0 on success, 2 on bad arguments or a file without that table.
 */
public final class RenderCharts {

    private RenderCharts() {
    }

    /** Runs the command; see the class documentation. */
    public static void main(String[] args) throws IOException {
        System.exit(run(args));
    }

    static int run(String[] args) throws IOException {
        Path file = null;
        int table = 1;
        Path out = null;
        String name = null;
        String title = null;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--table" -> table = Integer.parseInt(args[++i]);
                    case "--out" -> out = Path.of(args[++i]);
                    case "--name" -> name = args[++i];
                    case "--title" -> title = args[++i];
                    default -> {
                        if (file != null || args[i].startsWith("--")) {
                            return usage("unexpected argument " + args[i]);
                        }
                        file = Path.of(args[i]);
                    }
                }
            }
        } catch (ArrayIndexOutOfBoundsException | NumberFormatException e) {
            return usage("bad arguments: " + e.getMessage());
        }
        if (file == null) {
            return usage("no results file");
        }
        String prefix = name != null ? name : file.getFileName().toString().replaceFirst("\\.md$", "");
        Path directory = out != null ? out : file.toAbsolutePath().getParent();
        List<ResultsMarkdown.Row> rows;
        try {
            rows = ResultsMarkdown.table(Files.readString(file, StandardCharsets.UTF_8), table);
        } catch (IllegalArgumentException e) {
            return usage(file + ": " + e.getMessage());
        }
        Files.createDirectories(directory);
        for (Path written : BenchCharts.write(directory, prefix, title != null ? title : prefix, rows)) {
            System.out.println("written " + written);
        }
        return 0;
    }

    private static int usage(String problem) {
        System.err.println(problem);
        System.err.println("usage: RenderCharts FILE.md [--table N] [--out DIR] [--name PREFIX] [--title TITLE]");
        return 2;
    }
}
