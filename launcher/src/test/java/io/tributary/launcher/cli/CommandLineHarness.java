package io.tributary.launcher.cli;

import io.tributary.launcher.Main;
import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs {@code tributary} in-process and captures what it prints. */
record CommandLineHarness(int exitCode, String out, String err) {

    static CommandLineHarness run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new CommandLineHarness(code, out.toString(), err.toString());
    }
}
