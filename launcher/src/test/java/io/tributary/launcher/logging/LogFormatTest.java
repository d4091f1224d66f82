package io.tributary.launcher.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The launcher's logback.xml: the text pattern and the JSON option. */
class LogFormatTest {

    private static final String FORMAT = "TRIBUTARY_LOG_FORMAT";

    @AfterEach
    void clearTheFormat() {
        System.clearProperty(FORMAT);
    }

    @Test
    void textLinesCarryTheDateTheRoleAndTheThread() throws Exception {
        String line = logged("text", "storage", "Storage writer of group 7 started").strip();

        assertThat(line).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3} INFO  \\[storage\\] "
            + "\\[log-format-test\\] i\\.t\\.l\\.l\\.LogFormatTest - Storage writer of group 7 started");
    }

    @Test
    void jsonLinesAreOneObjectEachWithTheRole() throws Exception {
        String output = logged("json", "ingest", "Replication slot tributary ready");
        JsonNode event = new ObjectMapper().readTree(output.lines().filter(l -> l.contains("\"formattedMessage\""))
            .findFirst().orElseThrow());

        assertThat(event.path("level").asText()).isEqualTo("INFO");
        assertThat(event.path("threadName").asText()).isEqualTo("log-format-test");
        assertThat(event.path("loggerName").asText()).isEqualTo(LogFormatTest.class.getName());
        assertThat(event.path("formattedMessage").asText()).isEqualTo("Replication slot tributary ready");
        assertThat(event.path("timestamp").asLong()).isPositive();
        assertThat(event.path("context").path("properties").path("role").asText()).isEqualTo("ingest");
    }

    /**
     * Configures the process's logger context from the launcher's logback.xml (as the jar does), logs
     * {@code message} as {@code role} from a thread named {@code log-format-test} through the console appender's
     * encoder into a buffer, and restores the test configuration.
     */
    @SuppressWarnings("unchecked")
    private static String logged(String format, String role, String message) throws Exception {
        System.setProperty(FORMAT, format);
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try {
            configure(context, LogFormatTest.class.getResource("/logback.xml"));
            RoleConverter.set(role);
            ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
            OutputStreamAppender<ILoggingEvent> console =
                (OutputStreamAppender<ILoggingEvent>) root.getAppender(format);
            assertThat(console).as("the %s appender on the root logger", format).isNotNull();
            // The configured encoder (pattern or JSON), writing where the test reads instead of the console.
            OutputStreamAppender<ILoggingEvent> capture = new OutputStreamAppender<>();
            capture.setContext(context);
            capture.setEncoder(console.getEncoder());
            capture.setOutputStream(captured);
            capture.start();
            root.detachAppender(console);
            root.addAppender(capture);
            Logger log = LoggerFactory.getLogger(LogFormatTest.class);
            Thread thread = new Thread(() -> log.info(message), "log-format-test");
            thread.start();
            thread.join();
        } finally {
            configure(context, LogFormatTest.class.getResource("/logback-test.xml"));
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    private static void configure(LoggerContext context, URL configuration) throws Exception {
        context.reset();
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(configuration);
    }
}
