package dev.atrium.marketplace.entity.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/** The names and values an author may give a secret: a table of hostile cases and a seeded random loop. */
class AgentSecretTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261128L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 4000);
    private static final Pattern VALID_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");

    private static Problem problemOfName(String name) {
        var e = catchThrowableOfType(() -> AgentSecret.checkedName(name), BusinessException.class);
        return e == null ? null : e.problem();
    }

    private static Problem problemOfValue(String value) {
        var e = catchThrowableOfType(() -> AgentSecret.checkValue(value), BusinessException.class);
        return e == null ? null : e.problem();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "1ABC", "A-B", "A B", "A=B", "A.B", "A/B", "A\u0000B", "A\nB", "\u00c4PI",
            "API_KEY\u200b", "ＡPI", "$HOME", "A;rm -rf /", "../etc", "A%20B", "PATH", "HOME", "LANG", "SCRATCH",
            "HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ATRIUM_INVOKE_URL", "ATRIUM_INVOKE_TOKEN"})
    void whenANameIsHostileOrReservedThenItIsRefusedAs422(String name) {
        assertThat(problemOfName(name)).isEqualTo(Problem.VALIDATION);
    }

    @Test
    void whenANameIsLongerThan128ThenItIsRefusedAndAt128ItIsTaken() {
        assertThat(problemOfName("A".repeat(129))).isEqualTo(Problem.VALIDATION);
        assertThat(problemOfName(null)).isEqualTo(Problem.VALIDATION);
        assertThat(AgentSecret.checkedName("A".repeat(128))).hasSize(128);
        assertThat(AgentSecret.checkedName("_")).isEqualTo("_");
        assertThat(AgentSecret.checkedName("partner_api_key_2")).isEqualTo("partner_api_key_2");
        assertThat(AgentSecret.checkedName("ATRIUM_TEST_GREETING")).isEqualTo("ATRIUM_TEST_GREETING");
    }

    @Test
    void whenAValueIsHostileThenItIsRefusedWithTheRightProblem() {
        assertThat(problemOfValue(null)).isEqualTo(Problem.VALIDATION);
        assertThat(problemOfValue("")).isEqualTo(Problem.VALIDATION);
        assertThat(problemOfValue("a\u0000b")).isEqualTo(Problem.VALIDATION);
        assertThat(problemOfValue("\u0000")).isEqualTo(Problem.VALIDATION);
        assertThat(problemOfValue("lone \ud800 surrogate")).isEqualTo(Problem.VALIDATION);
        assertThat(problemOfValue("\udc00")).isEqualTo(Problem.VALIDATION);
        assertThat(problemOfValue("x".repeat(4097))).isEqualTo(Problem.PAYLOAD_TOO_LARGE);
        assertThat(problemOfValue("\u00e9".repeat(2049))).as("4098 bytes").isEqualTo(Problem.PAYLOAD_TOO_LARGE);
        assertThat(problemOfValue("\ud83d\ude00".repeat(1025))).as("4100 bytes").isEqualTo(Problem.PAYLOAD_TOO_LARGE);
    }

    @Test
    void whenAValueIsOrdinaryTextThenItIsTaken() {
        for (String value : new String[] {"x", " ", "x".repeat(4096), "\u00e9".repeat(2048), "\ud83d\ude00",
                "line one\nline two", "-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----", "$(reboot)",
                "'; DROP TABLE agent_secrets; --", "\"quoted\" \\ backslash", "%00", "\\u0000"}) {
            assertThatCode(() -> AgentSecret.checkValue(value)).as(value).doesNotThrowAnyException();
        }
    }

    @Test
    void whenRandomNamesAreCheckedThenOnlyValidUnreservedOnesPassAndNothingElseIsThrown() {
        var random = new Random(SEED);
        String alphabet = "AZaz09_-. =$/\u0000\n\u00e9\u200b";
        for (int i = 0; i < ROUNDS; i++) {
            var name = new StringBuilder();
            int length = random.nextInt(8) == 0 ? 120 + random.nextInt(20) : random.nextInt(12);
            for (int c = 0; c < length; c++) {
                name.append(random.nextInt(4) == 0 ? alphabet.charAt(random.nextInt(alphabet.length()))
                        : (char) ('A' + random.nextInt(26)));
            }
            String candidate = name.toString();
            Problem problem = problemOfName(candidate);
            boolean acceptable = VALID_NAME.matcher(candidate).matches()
                    && !AgentSecret.RESERVED.contains(candidate);
            assertThat(problem).as("round " + i + " (seed " + SEED + "): " + candidate)
                    .isEqualTo(acceptable ? null : Problem.VALIDATION);
        }
    }

    @Test
    void whenRandomValuesAreCheckedThenTheVerdictFollowsTheirBytes() {
        var random = new Random(SEED + 1);
        for (int i = 0; i < ROUNDS; i++) {
            var value = new StringBuilder();
            int length = random.nextInt(5) == 0 ? 2000 + random.nextInt(3000) : random.nextInt(64);
            for (int c = 0; c < length; c++) {
                value.append((char) (random.nextInt(3) == 0 ? random.nextInt(0x10000) : 0x20 + random.nextInt(95)));
            }
            String candidate = value.toString();
            Problem expected;
            if (candidate.isEmpty() || candidate.indexOf('\0') >= 0
                    || !StandardCharsets.UTF_8.newEncoder().canEncode(candidate)) {
                expected = Problem.VALIDATION;
            } else if (candidate.getBytes(StandardCharsets.UTF_8).length > AgentSecret.MAX_VALUE_BYTES) {
                expected = Problem.PAYLOAD_TOO_LARGE;
            } else {
                expected = null;
            }
            assertThat(problemOfValue(candidate)).as("round " + i + " (seed " + (SEED + 1) + ")").isEqualTo(expected);
        }
    }
}
