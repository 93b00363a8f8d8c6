package dev.atrium.identity.control.token;

import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TokenLifetimesTest {

    @Test
    void whenTheLifetimesAreTheSpecsOrShorterThenTheyPass() {
        assertThatNoException().isThrownBy(() -> TokenLifetimes.check(900, 604_800, 86_400));
        assertThatNoException().isThrownBy(() -> TokenLifetimes.check(1, 1, 1));
    }

    @Test
    void whenTheAccessLifetimeIsAboveFifteenMinutesThenTheStartIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> TokenLifetimes.check(901, 604_800, 86_400))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("atrium.tokens.access-ttl-seconds")
                .hasMessageContaining("ATRIUM_TOKENS_ACCESS_TTL_SECONDS")
                .hasMessageContaining("at most 900")
                .hasMessageNotContaining("refresh");
    }

    @Test
    void whenTheRefreshLifetimeIsAboveSevenDaysThenTheStartIsRefusedNamingTheKey() {
        assertThatThrownBy(() -> TokenLifetimes.check(900, 604_801, 86_400))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("atrium.tokens.refresh-ttl-seconds")
                .hasMessageContaining("at most 604800");
    }

    @Test
    void whenALifetimeIsZeroOrNegativeThenTheStartIsRefusedNamingEachKey() {
        assertThatThrownBy(() -> TokenLifetimes.check(0, -5, 0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("atrium.tokens.access-ttl-seconds")
                .hasMessageContaining("atrium.tokens.refresh-ttl-seconds")
                .hasMessageContaining("atrium.tokens.verify-ttl-seconds")
                .hasMessageContaining("positive");
    }
}
