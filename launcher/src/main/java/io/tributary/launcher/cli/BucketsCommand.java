package io.tributary.launcher.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tributary.launcher.config.TributaryConfig;
import io.tributary.launcher.inspect.BucketSnapshot;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.topics.json.CanonicalJsonFactory;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tributary buckets}: what a client would download at the current checkpoint. */
@Command(name = "buckets", mixinStandardHelpOptions = true,
    description = {
        "Print what a client would download at the group's current checkpoint, ops reduced per row, "
            + "read in one consistent transaction.",
        "With --json: one JSON object per line: first {\"group\":..,\"checkpoint\":{\"op_id\":..,\"lsn\":..}}, then "
            + "{\"bucket\":..,\"table\":..,\"id\":..,\"data\":{..}} per live row, then "
            + "{\"bucket\":..,\"checksum\":..,\"count\":..} per bucket. Exit code 3 when the group has no "
            + "checkpoint yet."})
public final class BucketsCommand implements Callable<Integer> {

    @Mixin
    private ConfigOption config;

    @Option(names = "--group", paramLabel = "ID", description = "sync rules group (default: the ACTIVE one)")
    private Long group;

    @Option(names = "--bucket", paramLabel = "PREFIX", description = "only buckets whose name starts with PREFIX")
    private String bucketPrefix = "";

    @Option(names = "--json", description = "JSON lines for scripts")
    private boolean json;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        TributaryConfig settings = config.load();
        PrintWriter out = spec.commandLine().getOut();
        try (Connection storage = ConfigOption.connectStorage(settings, "buckets")) {
            BucketSnapshot.read(storage, Optional.ofNullable(group), bucketPrefix,
                json ? new JsonLines(out) : new Text(out));
        } catch (BucketSnapshot.NoCheckpointException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return ExitCodes.NO_CHECKPOINT;
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** The JSON lines format scripts rely on. */
    private static final class JsonLines implements BucketSnapshot.Visitor {
        private final PrintWriter out;

        JsonLines(PrintWriter out) {
            this.out = out;
        }

        @Override
        public void start(SyncRulesGroup group, Checkpoint checkpoint) {
            line(json -> {
                json.writeNumberField("group", group.id());
                json.writeObjectFieldStart("checkpoint");
                json.writeStringField("op_id", Long.toString(checkpoint.opId()));
                json.writeStringField("lsn", checkpoint.lsn());
                json.writeEndObject();
            });
        }

        @Override
        public void row(String bucket, String table, String id, String data) {
            line(json -> {
                json.writeStringField("bucket", bucket);
                json.writeStringField("table", table);
                json.writeStringField("id", id);
                json.writeFieldName("data");
                json.writeRawValue(data);
            });
        }

        @Override
        public void bucketEnd(String bucket, long checksum, long count) {
            line(json -> {
                json.writeStringField("bucket", bucket);
                json.writeNumberField("checksum", checksum);
                json.writeNumberField("count", count);
            });
        }

        private interface Fields {
            void write(JsonGenerator json) throws IOException;
        }

        private void line(Fields fields) {
            StringWriter buffer = new StringWriter();
            try (JsonGenerator json = CanonicalJsonFactory.FACTORY.createGenerator(buffer)) {
                json.writeStartObject();
                fields.write(json);
                json.writeEndObject();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            out.println(buffer);
        }
    }

    /** A human-readable listing. */
    private static final class Text implements BucketSnapshot.Visitor {
        private final PrintWriter out;

        Text(PrintWriter out) {
            this.out = out;
        }

        @Override
        public void start(SyncRulesGroup group, Checkpoint checkpoint) {
            out.printf("Sync rules group %d (%s) at checkpoint op_id %d, LSN %s%n", group.id(), group.state(),
                checkpoint.opId(), checkpoint.lsn());
        }

        @Override
        public void row(String bucket, String table, String id, String data) {
            out.printf("  %s  %s/%s  %s%n", bucket, table, id, data);
        }

        @Override
        public void bucketEnd(String bucket, long checksum, long count) {
            out.printf("%s: %d rows, checksum %d%n", bucket, count, checksum);
        }
    }
}
