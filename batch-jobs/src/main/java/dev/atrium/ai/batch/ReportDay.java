package dev.atrium.ai.batch;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

import dev.atrium.ai.control.UsageReports;

/** The day a report run covers: the {@code date} job parameter, or yesterday (UTC) when absent. */
final class ReportDay {

    private ReportDay() {
    }

    static LocalDate of(String parameter, Clock clock) {
        if (parameter == null || parameter.isBlank()) {
            return LocalDate.now(clock.withZone(ZoneOffset.UTC)).minusDays(1);
        }
        try {
            return LocalDate.parse(parameter.trim());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("date must be YYYY-MM-DD", e);
        }
    }

    static String partsPrefix(LocalDate day) {
        return UsageReports.PREFIX + ".parts/" + day + "/";
    }
}
