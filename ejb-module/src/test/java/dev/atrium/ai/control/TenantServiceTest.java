package dev.atrium.ai.control;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ejb.TransactionAttribute;
import jakarta.ejb.TransactionAttributeType;

import org.junit.jupiter.api.Test;

/**
 * Every request reads its caller's tier, most from the key-value store alone: the reads must not start a
 * transaction of their own (a merge once left the attribute on the method inserted above {@code tierOf}).
 */
class TenantServiceTest {

    @Test
    void whenTheTierIsReadThenNoTransactionOfItsOwnIsStarted() throws NoSuchMethodException {
        for (String method : new String[] {"tierOf", "onFreeTier"}) {
            var attribute = TenantService.class.getMethod(method, long.class).getAnnotation(TransactionAttribute.class);
            assertThat(attribute).as(method).isNotNull();
            assertThat(attribute.value()).as(method).isEqualTo(TransactionAttributeType.SUPPORTS);
        }
    }
}
