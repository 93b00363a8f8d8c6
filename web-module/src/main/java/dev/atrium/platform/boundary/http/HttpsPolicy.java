package dev.atrium.platform.boundary.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.eclipse.microprofile.config.inject.ConfigProperties;

import dev.atrium.platform.BaseUrl;
import dev.atrium.platform.PlatformConfig;
import dev.atrium.platform.boundary.ClientAddress;
import dev.atrium.platform.boundary.operations.HealthResource;
import dev.atrium.platform.error.Problem;

/**
 * Spec 01, "Transport: HTTPS is required". With {@code atrium.require-https} a request that reached us over plain
 * HTTP, and not through a trusted proxy saying {@code X-Forwarded-Proto: https}, is sent to the same address over
 * HTTPS when it is a GET or HEAD (308, which keeps the method and is neither of the 301/302 the API avoids) and
 * refused otherwise (403 in the envelope: its body already crossed the network in clear, so it is not replayed).
 * Clients on the loopback interface are exempt, so a local run on its embedded defaults keeps working; the client
 * is the one {@link ClientAddress} names, so a proxy's loopback connection does not exempt the clients behind it.
 * {@code /health} and its probes are exempt too, for load-balancer and orchestrator probes.
 */
@ApplicationScoped
public class HttpsPolicy {

    private static final Set<String> REDIRECTED = Set.of("GET", "HEAD");

    @Inject
    ClientAddress addresses;

    @Inject
    @ConfigProperties
    PlatformConfig config;

    @Inject
    BaseUrl baseUrl;

    /** {@code true} when the request was answered (redirected or refused) and must go no further. */
    public boolean enforce(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!config.requireHttps || addresses.overHttps(request) || loopback(addresses.of(request))
                || HealthResource.PATHS.contains(request.getRequestURI())) {
            return false;
        }
        if (REDIRECTED.contains(request.getMethod())) {
            response.setStatus(308);
            response.setHeader("Location", httpsUrl(request));
            return true;
        }
        HttpPolicyFilter.writeError(response, 403, Problem.FORBIDDEN, "HTTPS required",
                "Send this request to " + httpsBase() + " instead: plain HTTP is refused");
        return true;
    }

    private String httpsUrl(HttpServletRequest request) {
        String query = request.getQueryString();
        return httpsBase() + request.getRequestURI() + (query == null ? "" : "?" + query);
    }

    /**
     * The configured public address when it is HTTPS, else its host on the HTTPS port. Never the request's
     * {@code Host} header, which the client chooses.
     */
    private String httpsBase() {
        String base = baseUrl.value();
        if (base.regionMatches(true, 0, "https://", 0, 8)) {
            return base;
        }
        String host = URI.create(base).getHost();
        int port = config.httpsPort;
        return "https://" + (host == null ? "localhost" : host) + (port == 443 ? "" : ":" + port);
    }

    private static boolean loopback(String address) {
        if (address == null || !address.matches("[0-9a-fA-F:.]{2,45}")) {
            return false;
        }
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
