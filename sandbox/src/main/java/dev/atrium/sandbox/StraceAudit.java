package dev.atrium.sandbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The network calls in the file strace wrote for an audited run ({@code -e trace=network}). */
final class StraceAudit {

    private static final int MAX_NETWORK_ATTEMPTS = 100;
    private static final Pattern NETWORK_CALL = Pattern.compile(
            "^(?:\\[pid\\s+)?\\d+\\]?\\s+((?:connect|sendto|sendmsg|sendmmsg|bind)\\(.*)$");

    private StraceAudit() {
    }

    static List<String> networkAttempts(Path audit) {
        List<String> attempts = new ArrayList<>();
        if (!Files.exists(audit)) {
            return attempts;
        }
        try (var lines = Files.lines(audit, StandardCharsets.UTF_8)) {
            lines.forEach(line -> {
                Matcher m = NETWORK_CALL.matcher(line);
                // the loopback set-up of bwrap (netlink) and name-service lookups (unix sockets) are not the network
                if (m.matches() && !line.contains("AF_NETLINK") && !line.contains("AF_UNIX")
                        && attempts.size() < MAX_NETWORK_ATTEMPTS) {
                    attempts.add(m.group(1));
                }
            });
        } catch (IOException | UncheckedIOException ignored) {
            // an unreadable audit reports nothing
        }
        return attempts;
    }
}
