package io.tributary.ingest.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.Barrier;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

@RealServices
class StandbyIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private final Logger logger = (Logger) LoggerFactory.getLogger(IngestService.class);
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();

    @BeforeEach
    void captureTheServiceLog() {
        log.start();
        logger.addAppender(log);
    }

    @AfterEach
    void releaseTheServiceLog() {
        logger.detachAppender(log);
    }

    @Test
    void aSecondInstanceStandsByAndTakesOverWhenTheFirstStops(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE items (id int PRIMARY KEY)");
            IngestConfig config = f.config("items");
            ChangesTopic changes = f.changes();
            IngestService first = f.start(config);
            IngestService second = f.startNoWait(config);

            await().atMost(WAIT).until(() -> second.state() == IngestState.STANDBY);
            assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage)
                .anyMatch(m -> m.matches("standby: slot " + f.slot + " is active \\(pid \\d+\\)"));
            assertThatThrownBy(() -> second.awaitSlotReady(Duration.ofSeconds(1)))
                .as("a standby's planner does not start").isInstanceOf(TimeoutException.class);
            f.db.execute("INSERT INTO items VALUES (1)");
            changes.awaitUntil(WAIT, got -> ChangeCaptureIT.changeEvents(got).size() == 1);
            assertThat(second.state()).isEqualTo(IngestState.STANDBY);

            first.close();
            second.awaitActive(WAIT);
            f.db.execute("INSERT INTO items VALUES (2)");

            List<Received> all = changes.awaitUntil(WAIT, got -> ChangeCaptureIT.changeEvents(got).stream()
                .anyMatch(e -> e.pk().json().equals("[2]")));
            assertThat(second.stats().changeEvents()).isGreaterThanOrEqualTo(1);
            for (int p = 0; p < IngestFixture.PARTITIONS; p++) {
                List<Barrier> barriers = ChangesTopic.partition(all, p).stream().filter(Received::isBarrier)
                    .map(Received::barrier).collect(Collectors.toList());
                for (int i = 1; i < barriers.size(); i++) {
                    assertThat(barriers.get(i).epoch()).isEqualTo(barriers.get(i - 1).epoch() + 1);
                }
            }
        }
    }

    /**
     * A second instance that starts while the first is still starting its engine (the slot not yet active) must not
     * create the deployment's transactional producer: that would fence the first one, which then restarts and, by
     * the same race, fences the second in turn.
     */
    @Test
    void aSecondInstanceStartingWhileTheFirstStartsFencesNothing(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE items (id int PRIMARY KEY)");
            IngestConfig config = f.config("items");
            ChangesTopic changes = f.changes();
            IngestService first = f.startNoWait(config);
            first.awaitSlotReady(WAIT);
            IngestService second = f.startNoWait(config);

            first.awaitActive(WAIT);
            await().atMost(WAIT).until(() -> second.state() == IngestState.STANDBY);
            for (int i = 1; i <= 3; i++) {
                f.db.execute("INSERT INTO items VALUES (" + i + ")");
                int rows = i;
                changes.awaitUntil(WAIT, got -> ChangeCaptureIT.changeEvents(got).size() == rows);
            }
            assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage)
                .as("restarts of either instance").noneMatch(m -> m.startsWith("Ingest restarting"));
            assertThat(first.state()).isEqualTo(IngestState.ACTIVE);
            assertThat(second.state()).isEqualTo(IngestState.STANDBY);
        }
    }
}
