package dev.atrium.marketplace.control.checks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.atrium.marketplace.entity.Permissions;
import dev.atrium.marketplace.entity.checks.CheckFinding;

/**
 * Check 5, the network audit: the network system calls the sandbox saw during the runs (smoke tests and injection
 * inputs). A connection attempt by an agent whose card declares no network is a high finding (the sandbox refused
 * it, but the agent hid what it does); with network declared, an attempt to a host outside {@code allowed_domains} is
 * a medium one where the attempt names the host. Most attempts name only an address (the DNS lookup itself is a
 * connect to a resolver), which cannot be matched to a domain: those are noted, low. Local sockets
 * ({@code AF_UNIX}, {@code AF_NETLINK}) are not network.
 */
final class NetworkAuditCheck {

    static final String NAME = "network_audit";

    private static final Pattern LOCAL = Pattern.compile("AF_(?:UNIX|LOCAL|NETLINK|FILE)\\b");
    private static final Pattern HOST = Pattern.compile(
            "\\b((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63})\\b");

    static List<CheckFinding> check(List<CheckRunner.AgentRun> runs, Permissions declared) {
        var attempts = new LinkedHashMap<String, String>();
        for (CheckRunner.AgentRun run : runs) {
            for (String attempt : run.result().networkAttempts()) {
                if (!LOCAL.matcher(attempt).find() && attempts.size() < 100) {
                    attempts.putIfAbsent(attempt, run.label());
                }
            }
        }
        var findings = new ArrayList<CheckFinding>();
        for (Map.Entry<String, String> a : attempts.entrySet()) {
            String attempt = a.getKey().length() > 200 ? a.getKey().substring(0, 200) + "…" : a.getKey();
            if (!declared.network()) {
                findings.add(CheckFinding.high(a.getValue(), "A network attempt while the card declares no network: "
                        + attempt));
                continue;
            }
            String host = host(a.getKey());
            if (host == null) {
                findings.add(CheckFinding.low(a.getValue(), "A network attempt to an address that cannot be matched "
                        + "to allowed_domains: " + attempt));
            } else if (!declared.allowedDomains().isEmpty() && !allowed(host, declared.allowedDomains())) {
                findings.add(CheckFinding.medium(a.getValue(), "A network attempt to " + host
                        + ", outside allowed_domains"));
            }
        }
        return findings;
    }

    static String host(String attempt) {
        Matcher m = HOST.matcher(attempt.toLowerCase(Locale.ROOT));
        while (m.find()) {
            String h = m.group(1);
            // "AF_INET6"-like tokens never match; a word like "connect.c" could, so a host needs a letter TLD
            if (!h.matches(".*\\.\\d+$")) {
                return h;
            }
        }
        return null;
    }

    /** A host is allowed when it is a declared domain or below one: {@code api.example.com} under {@code example.com}. */
    static boolean allowed(String host, List<String> domains) {
        for (String d : domains) {
            String domain = d.toLowerCase(Locale.ROOT).replaceFirst("^\\*\\.", "");
            if (host.equals(domain) || host.endsWith("." + domain)) {
                return true;
            }
        }
        return false;
    }
}
