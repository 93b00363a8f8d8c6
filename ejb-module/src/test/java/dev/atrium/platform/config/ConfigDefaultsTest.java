package dev.atrium.platform.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.util.Optional;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

class ConfigDefaultsTest {

    static class Sample {
        @ConfigProperty(name = "a", defaultValue = "7")
        int count;
        @ConfigProperty(name = "b", defaultValue = "30000000000")
        long big;
        @ConfigProperty(name = "c", defaultValue = "true")
        boolean on;
        @ConfigProperty(name = "d", defaultValue = "0.25")
        double share;
        @ConfigProperty(name = "e", defaultValue = "1.50")
        BigDecimal price;
        @ConfigProperty(name = "f", defaultValue = "text")
        String name;
        @ConfigProperty(name = "g")
        Optional<String> absent;
        @ConfigProperty(name = "h", defaultValue = "x")
        Optional<String> present;
        int untouched = 3;
    }

    static class NoDefault {
        @ConfigProperty(name = "a")
        int count;
    }

    @Test
    void whenAClassDeclaresDefaultsThenEachFieldHoldsItsDefault() {
        Sample sample = ConfigDefaults.of(Sample.class);
        assertEquals(7, sample.count);
        assertEquals(30_000_000_000L, sample.big);
        assertEquals(true, sample.on);
        assertEquals(0.25, sample.share);
        assertEquals(new BigDecimal("1.50"), sample.price);
        assertEquals("text", sample.name);
        assertEquals(Optional.empty(), sample.absent);
        assertEquals(Optional.of("x"), sample.present);
        assertEquals(3, sample.untouched);
    }

    @Test
    void whenARequiredFieldHasNoDefaultThenItIsRefused() {
        assertThrows(IllegalStateException.class, () -> ConfigDefaults.of(NoDefault.class));
    }
}
