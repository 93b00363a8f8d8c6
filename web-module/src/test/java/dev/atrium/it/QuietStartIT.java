package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 49: the start {@code scripts/run} makes (the embedded suite's server: launcher, logging and trust store as
 * that script sets them) is quiet. From launch to the first healthy answer the log holds no certificate dump, at most
 * 40 lines at INFO, and one line for each backend.
 */
@ExtendWith(AtriumServer.class)
class QuietStartIT {

    /** How each backend's line begins, after the record's header. */
    static final List<String> BACKENDS = List.of("Database: ", "Key-value store: ", "Broker: ", "Object store: ",
            "Mail: ", "Models: ", "Payments: ", "Sandbox: ");

    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*m");
    /** An ODL record's header: [time] [version] [LEVEL] [id] [logger] [thread] [millis] [levelValue: n] message */
    private static final Pattern RECORD = Pattern.compile(
            "(?m)^\\[\\d{4}-[^\\]]*\\] \\[[^\\]]*\\] \\[([A-Z]+)\\] \\[[^\\]]*\\] \\[([^\\]]*)\\].*?\\[levelValue: \\d+\\] ");

    record Entry(String level, String logger, String message) {
        int lines() {
            return (int) message.strip().lines().count();
        }
    }

    @Test
    void whenStartedAsTheRunScriptStartsItThenNoCertificateIsDumped() throws Exception {
        String log = AtriumServer.get().startLog();
        assertThat(log).isNotBlank().doesNotContain("NCLS-SECURITY-05054").doesNotContain("has expired")
                .doesNotContain("-----BEGIN CERTIFICATE").doesNotContain("Signature Algorithm:");
        assertThat(AtriumServer.get().launchCommand()).as("the JDK's trust store, its expired entries dropped")
                .anyMatch(argument -> argument.matches("-Djavax\\.net\\.ssl\\.trustStore=.*/truststore-[0-9-]+\\.p12"));
    }

    @Test
    void whenStartedThenAtMostFortyLinesAreLoggedAtInfoAndEachBackendHasOneLine() throws Exception {
        List<Entry> entries = entries(AtriumServer.get().startLog());
        List<Entry> info = entries.stream().filter(e -> e.level().equals("INFO")).toList();
        int infoLines = info.stream().mapToInt(Entry::lines).sum();
        System.out.printf("Start log: %d records, %d at INFO in %d lines%n", entries.size(), info.size(), infoLines);
        assertThat(infoLines).as("lines at INFO from launch to ready:%n%s", describe(info)).isLessThanOrEqualTo(40);
        for (String backend : BACKENDS) {
            assertThat(entries).as("one line for %s%n%s", backend.strip(), describe(entries))
                    .filteredOn(e -> e.message().startsWith(backend)).singleElement()
                    .satisfies(e -> assertThat(e.lines()).isEqualTo(1));
        }
    }

    static List<Entry> entries(String log) {
        String plain = ANSI.matcher(log).replaceAll("");
        Matcher header = RECORD.matcher(plain);
        var entries = new java.util.ArrayList<Entry>();
        int[] previous = null;
        while (header.find()) {
            if (previous != null) {
                entries.add(entry(plain, previous, header.start()));
            }
            previous = new int[] {header.end(), header.start(1), header.end(1), header.start(2), header.end(2)};
        }
        if (previous != null) {
            entries.add(entry(plain, previous, plain.length()));
        }
        return entries;
    }

    private static Entry entry(String plain, int[] at, int end) {
        String message = plain.substring(at[0], end).strip();
        // a record of several lines is wrapped in [[ ]]
        if (message.startsWith("[[")) {
            message = message.substring(2, message.endsWith("]]") ? message.length() - 2 : message.length()).strip();
        }
        return new Entry(plain.substring(at[1], at[2]), plain.substring(at[3], at[4]), message);
    }

    private static String describe(List<Entry> entries) {
        return String.join("\n", entries.stream().map(e -> e.level() + " " + e.logger() + ": "
                + Arrays.stream(e.message().split("\n")).findFirst().orElse("")).toList());
    }
}
