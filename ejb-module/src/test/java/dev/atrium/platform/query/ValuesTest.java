package dev.atrium.platform.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;

import org.junit.jupiter.api.Test;

import dev.atrium.platform.error.BusinessException;

class ValuesTest {

    enum Colour { RED, GREEN }

    @Test
    void whenValuesHaveTheRightShapeThenParsedToTheAttributeType() {
        assertThat(Values.parse("id", " 42 ", Long.class)).isEqualTo(42L);
        assertThat(Values.parse("flag", "TRUE", Boolean.class)).isEqualTo(true);
        assertThat(Values.parse("colour", "green", Colour.class)).isEqualTo(Colour.GREEN);
        assertThat(Values.parse("at", "2026-01-31", Instant.class)).isEqualTo(Instant.parse("2026-01-31T00:00:00Z"));
        assertThat(Values.parse("at", "2026-01-31T12:00:00+02:00", Instant.class))
                .isEqualTo(Instant.parse("2026-01-31T10:00:00Z"));
    }

    @Test
    void whenValuesAreMalformedThenValidationNamesTheParameter() {
        assertThatThrownBy(() -> Values.parse("author_id", "abc", Long.class))
                .isInstanceOfSatisfying(BusinessException.class,
                        e -> assertThat(e.details()).startsWith("author_id:").contains("integer"));
        assertThatThrownBy(() -> Values.parse("colour", "blue", Colour.class))
                .isInstanceOfSatisfying(BusinessException.class,
                        e -> assertThat(e.details()).contains("red, green"));
        assertThatThrownBy(() -> Values.parse("at", "tomorrow", Instant.class)).isInstanceOf(BusinessException.class);
        assertThatThrownBy(() -> Values.bool("published", "maybe")).isInstanceOf(BusinessException.class);
    }

    @Test
    void whenSearchTermHasLikeWildcardsThenTheyAreEscaped() {
        assertThat(EntityQuery.escapeLike("50%_off\\")).isEqualTo("50\\%\\_off\\\\");
    }
}
