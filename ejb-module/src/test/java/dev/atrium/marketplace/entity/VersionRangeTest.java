package dev.atrium.marketplace.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Dependency ranges from untrusted cards: npm's meaning of ^ and ~, conjunctions, and every malformed form. */
class VersionRangeTest {

    private static final long SEED = Long.getLong("atrium.fuzz.seed", 20261124L);
    private static final int ROUNDS = Integer.getInteger("atrium.fuzz.rounds", 5_000);

    @ParameterizedTest(name = "{0} contains {1}: {2}")
    @CsvSource(delimiter = '|', value = {
            ">=1.0.0|1.0.0|true", ">=1.0.0|0.9.9|false", ">=1.0.0|7.0.0|true",
            ">1.0.0|1.0.0|false", ">1.0.0|1.0.1|true",
            "<=2.0.0|2.0.0|true", "<2.0.0|2.0.0|false", "<2.0.0|1.99.99|true",
            "1.2.3|1.2.3|true", "1.2.3|1.2.4|false", "=1.2.3|1.2.3|true",
            "*|0.0.1|true", "* |99.0.0|true",
            "^1.2.3|1.2.3|true", "^1.2.3|1.9.0|true", "^1.2.3|2.0.0|false", "^1.2.3|1.2.2|false",
            "^0.2.3|0.2.9|true", "^0.2.3|0.3.0|false", "^0.0.3|0.0.3|true", "^0.0.3|0.0.4|false",
            "~1.2.3|1.2.9|true", "~1.2.3|1.3.0|false", "~0.2.3|0.2.4|true",
            ">=1.0.0 <2.0.0|1.5.0|true", ">=1.0.0 <2.0.0|2.0.0|false", ">=1.0.0, <2.0.0|1.0.0|true",
            ">= 1.0.0 < 2.0.0|1.9.9|true", ">=1.0.0,<1.0.0|1.0.0|false",
            ">=999999999.0.0|999999999.0.0|true", "^999999999.0.0|999999999.5.5|true"})
    void whenARangeIsReadThenItContainsExactlyItsVersions(String range, String version, boolean contained) {
        assertThat(VersionRange.parse(range).contains(SemanticVersion.parse(version))).isEqualTo(contained);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "about one", "1.0", "1", ">=1", "01.0.0", "1.00.0", "1.0.0-beta", "v1.0.0",
            "=>1.0.0", "=<1.0.0", ">>1.0.0", "!1.0.0", "^", "~", "^^1.0.0", "~>1.0.0", "1.0.0 ||2.0.0",
            "1.0.0 - 2.0.0", "x", "1.x", "1.0.x", "１.０.０", "١.٠.٠", "1.0.0\u0000", "\u0000", "1.0.0;rm -rf /",
            "9999999999.0.0", "1.0.9999999999", "-1.0.0", "+1.0.0", "1..0", "1.0.0.0", "latest", "*.*.*"})
    void whenARangeIsMalformedThenAClearProblemNeverAnotherException(String range) {
        assertThatThrownBy(() -> VersionRange.parse(range)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("Exception");
    }

    @Test
    void whenARangeIsTooLongOrHasTooManyTermsThenRefusedByItsLimit() {
        assertThatThrownBy(() -> VersionRange.parse(">=1.0.0 ".repeat(30))).hasMessageContaining("characters");
        assertThatThrownBy(() -> VersionRange.parse("* ".repeat(17).strip())).hasMessageContaining("terms");
        assertThatThrownBy(() -> VersionRange.parse("1.0.0 ".repeat(1000))).isInstanceOf(IllegalArgumentException.class);
        assertThat(VersionRange.parse("* ".repeat(16).strip()).contains(SemanticVersion.parse("3.2.1"))).isTrue();
    }

    @Test
    void whenAMalformedTermIsReportedThenControlCharactersAreShownEscapedAndLongTermsCut() {
        assertThatThrownBy(() -> VersionRange.parse("1.0.0\u0007")).hasMessageContaining("\\u0007");
        assertThatThrownBy(() -> VersionRange.parse("x".repeat(150))).hasMessageContaining("…");
    }

    @Test
    void whenRandomTextIsReadThenEitherARangeOrAClearProblem() {
        var random = new Random(SEED);
        String alphabet = "0123456789.^~<>=*, xv-|\u0000１";
        for (int round = 0; round < ROUNDS; round++) {
            var text = new StringBuilder();
            int length = random.nextInt(40);
            for (int i = 0; i < length; i++) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            try {
                var range = VersionRange.parse(text.toString());
                // a range that parses answers for any version
                range.contains(new SemanticVersion(random.nextInt(5), random.nextInt(5), random.nextInt(5)));
            } catch (IllegalArgumentException expected) {
                assertThat(expected.getMessage()).as("seed %d round %d", SEED, round).isNotBlank();
            }
        }
    }
}
