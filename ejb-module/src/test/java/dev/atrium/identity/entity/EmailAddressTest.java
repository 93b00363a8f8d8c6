package dev.atrium.identity.entity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import dev.atrium.platform.error.BusinessException;

class EmailAddressTest {

    @Test
    void whenAddressHasCaseAndSpacesThenNormalized() {
        assertThat(EmailAddress.of("  Ann.Lee@Example.COM ").value()).isEqualTo("ann.lee@example.com");
        assertThat(EmailAddress.of("A@B.co")).isEqualTo(EmailAddress.of("a@b.co"));
    }

    @Test
    void whenAddressIsMalformedThenValidationFails() {
        for (String bad : new String[] {"", "plain", "a@b", "@b.co", "a b@c.de", "a@@b.co"}) {
            assertThatThrownBy(() -> EmailAddress.of(bad)).as(bad).isInstanceOf(BusinessException.class);
        }
        assertThatThrownBy(() -> EmailAddress.of(null)).isInstanceOf(BusinessException.class);
    }
}
