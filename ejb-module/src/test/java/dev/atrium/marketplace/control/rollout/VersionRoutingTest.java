package dev.atrium.marketplace.control.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/** The caller's stable bucket, and the {@code version} parameter of an invocation, a caller's untrusted text. */
class VersionRoutingTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261124L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 5_000);

    @Test
    void whenTheSameCallerAsksAgainThenTheSameBucket() {
        UUID agent = UUID.fromString("6f1c2c56-8a43-4d5e-9a57-0a1b2c3d4e5f");
        for (long user = 1; user < 200; user++) {
            assertThat(VersionRouting.bucket(agent, user)).isEqualTo(VersionRouting.bucket(agent, user))
                    .isBetween(0, 99);
        }
    }

    @Test
    void whenManyCallersThenTheBucketsSpreadEvenlySoTenPercentMeansAboutTenPercent() {
        UUID agent = UUID.randomUUID();
        int[] counts = new int[100];
        int callers = 100_000;
        for (long user = 1; user <= callers; user++) {
            counts[VersionRouting.bucket(agent, user)]++;
        }
        int firstTen = 0;
        for (int i = 0; i < 10; i++) {
            firstTen += counts[i];
        }
        assertThat(firstTen / (double) callers).isBetween(0.09, 0.11);
        for (int count : counts) {
            assertThat(count).isBetween(800, 1200);
        }
    }

    @Test
    void whenTheAgentDiffersThenTheSameCallerLandsIndependently() {
        int same = 0;
        for (long user = 1; user <= 1000; user++) {
            if (VersionRouting.bucket(UUID.randomUUID(), user) < 10) {
                same++;
            }
        }
        assertThat(same).isBetween(50, 150);
    }

    @ParameterizedTest
    @CsvSource({"1,1", "v1,1", "0,0", "2,2", "v12,12", "999999,999999"})
    void whenAMajorIsPinnedThenItIsRead(String parameter, int major) {
        assertThat(VersionRouting.pinnedMajor(parameter)).isEqualTo(major);
    }

    @Test
    void whenNoVersionIsGivenThenNothingIsPinned() {
        assertThat(VersionRouting.pinnedMajor(null)).isNull();
        assertThat(VersionRouting.pinnedMajor("")).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.0", "1.0.0", "01", "v", "vv1", "-1", "+1", "1e3", "0x1", " 1", "1 ", "１", "٣",
            "1000000", "99999999999999999999", "latest", "^1", ">=1", "1;DROP", "\u0000", "v1.2", "V1", "1/2"})
    void whenTheVersionIsNotAMajorNumberThenAValidationErrorNamingIt(String parameter) {
        assertThatThrownBy(() -> VersionRouting.pinnedMajor(parameter)).isInstanceOf(BusinessException.class)
                .hasMessageContaining("validation")
                .satisfies(e -> assertThat(((BusinessException) e).problem()).isEqualTo(Problem.VALIDATION))
                .satisfies(e -> assertThat(((BusinessException) e).details()).startsWith("version:"));
    }

    @Test
    void whenRandomTextIsGivenThenEitherAMajorOrAValidationErrorNeverAnythingElse() {
        var random = new Random(SEED);
        String alphabet = "0123456789v.-+ eE\u0000１";
        for (int round = 0; round < ROUNDS; round++) {
            var text = new StringBuilder();
            int length = random.nextInt(12);
            for (int i = 0; i < length; i++) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String parameter = text.toString();
            try {
                Integer major = VersionRouting.pinnedMajor(parameter);
                assertThat(major == null ? parameter : (parameter.startsWith("v") ? "v" : "") + major)
                        .as("seed %d round %d", SEED, round).isEqualTo(parameter);
            } catch (BusinessException e) {
                assertThat(e.problem()).as("seed %d round %d", SEED, round).isEqualTo(Problem.VALIDATION);
            }
        }
    }
}
