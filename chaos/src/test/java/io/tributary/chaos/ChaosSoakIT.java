package io.tributary.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.chaos.run.RunSettings;
import io.tributary.chaos.run.Soak;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The soak profile, on demand only ({@code ./chaos.sh --minutes 30 --seed N}; {@code mvn verify} excludes it):
 * chaos rounds with seeds {@code N, N+1, ...} until the minutes are used up, then runs, faults injected and
 * mismatches. Every round must be clean.
 */
@RealServices
class ChaosSoakIT {

    @Test
    void everySoakRoundEndsWithoutMismatch(TestServices services) {
        long seed = Runs.seed();
        Duration budget = Duration.ofMinutes(Long.parseLong(System.getProperty("chaos.minutes", "30").trim()));
        Runs.print("chaos soak: " + budget.toMinutes() + " minutes from seed " + seed);
        Soak.Result result = Soak.run(budget, seed, round -> Runs.environment(services, "soak-" + round),
            RunSettings::soak, Runs::print);
        Runs.print(result.summary());

        assertThat(result.clean()).as(result.summary()).isTrue();
    }
}
