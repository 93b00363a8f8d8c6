package dev.atrium.platform.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.kv.InMemoryKeyValueStore;
import dev.atrium.platform.persistence.DatabaseMigrations;

class SchedulePauseTest {

    @ParameterizedTest(name = "''{0}'' pauses {1}: {2}")
    @CsvSource(delimiter = '|', value = {
            "''                                   | monthly-payout     | false",
            "'   '                                | monthly-payout     | false",
            "none                                 | monthly-payout     | false",
            "false                                | monthly-payout     | false",
            "FALSE                                | monthly-payout     | false",
            "all                                  | monthly-payout     | true",
            "ALL                                  | quality-scoring    | true",
            "true                                 | daily-usage-report | true",
            "*                                    | monthly-payout     | true",
            "monthly-payout                       | monthly-payout     | true",
            "monthly-payout                       | quality-scoring    | false",
            "' quality-scoring , monthly-payout ' | monthly-payout     | true",
            "'quality-scoring,,'                  | monthly-payout     | false",
            "monthly                              | monthly-payout     | false",
            "monthly-payout-2                     | monthly-payout     | false",
            "'monthly-payout;quality-scoring'     | monthly-payout     | false",
            "yes                                  | monthly-payout     | false"
    })
    void whenTheSettingNamesAJobOrAllThenOnlyThoseSchedulesArePaused(String setting, String job, boolean paused) {
        assertThat(BatchJobs.paused(setting, job)).isEqualTo(paused);
    }

    @Test
    void whenTheSettingIsAnyStringThenItNeverThrowsAndOnlyAnExactNameOrAllPauses() {
        var random = new Random(20261125);
        String alphabet = "ab-,* \t\u00e9\u0000ALLtrue";
        for (int i = 0; i < 5_000; i++) {
            var setting = new StringBuilder();
            for (int n = random.nextInt(24); n > 0; n--) {
                setting.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String value = setting.toString();
            boolean paused = BatchJobs.paused(value, "ab");
            String normal = value.trim().toLowerCase(java.util.Locale.ROOT);
            boolean expected = normal.equals("all") || normal.equals("true") || normal.equals("*")
                    || java.util.Arrays.stream(normal.split(",")).map(String::trim).anyMatch("ab"::equals);
            assertThat(paused).as("'%s'", value).isEqualTo(expected);
        }
    }

    @Test
    void whenTheScheduleIsPausedThenStartOnceStartsNothingAndClaimsNothingUntilItIsResumed() {
        var setting = new AtomicReference<>("monthly-payout");
        var jobs = new BatchJobs();
        jobs.store = new InMemoryKeyValueStore(Clock.fixed(Instant.parse("2026-12-01T03:05:00Z"), ZoneOffset.UTC));
        jobs.config = config(setting);
        jobs.migrations = migrated();

        assertThat(jobs.startOnce("monthly-payout:2026-11", Duration.ofDays(40), "monthly-payout", "month",
                "2026-11")).isEmpty();
        // nothing was claimed: once resumed, the next firing may start the month
        assertThat(jobs.store.setIfAbsent("batch-claim:monthly-payout:2026-11", "1", Duration.ofDays(40))).isTrue();
        setting.set("none");
        assertThat(jobs.schedulePaused("monthly-payout")).isFalse();
    }

    @Test
    void whenTheMigrationsAreNotDoneThenEverySchedulePausesAndTheRuntimeIsNotOpened() {
        var jobs = new BatchJobs();
        jobs.store = new InMemoryKeyValueStore(Clock.fixed(Instant.parse("2026-12-01T03:05:00Z"), ZoneOffset.UTC));
        jobs.config = config(new AtomicReference<>("none"));
        jobs.migrations = new DatabaseMigrations();

        assertThat(jobs.schedulePaused("agent-rescan")).isTrue();
        assertThat(jobs.startOnce("monthly-payout:2026-11", Duration.ofDays(40), "monthly-payout", "month",
                "2026-11")).isEmpty();
        assertThat(jobs.store.setIfAbsent("batch-claim:monthly-payout:2026-11", "1", Duration.ofDays(40))).isTrue();
        var refused = assertThrows(BusinessException.class, () -> jobs.executions("monthly-payout", 20));
        assertThat(refused.problem().status()).isEqualTo(503);

        jobs.migrations = migrated();
        assertThat(jobs.schedulePaused("agent-rescan")).isFalse();
    }

    private static DatabaseMigrations migrated() {
        return new DatabaseMigrations() {
            @Override
            public Optional<String> schemaVersion() {
                return Optional.of("90");
            }
        };
    }

    private static Config config(AtomicReference<String> paused) {
        return (Config) Proxy.newProxyInstance(Config.class.getClassLoader(), new Class<?>[] {Config.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getOptionalValue")
                            && BatchJobs.SCHEDULES_PAUSED.equals(args[0])) {
                        return Optional.ofNullable(paused.get());
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
