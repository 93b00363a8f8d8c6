package dev.atrium.ai.control.models;

import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Logger;
import java.util.regex.Pattern;

import com.nimbusds.oauth2.sdk.AccessTokenResponse;
import com.nimbusds.oauth2.sdk.ClientCredentialsGrant;
import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.ParseException;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.TokenErrorResponse;
import com.nimbusds.oauth2.sdk.TokenRequest;
import com.nimbusds.oauth2.sdk.TokenResponse;
import com.nimbusds.oauth2.sdk.auth.ClientSecretBasic;
import com.nimbusds.oauth2.sdk.auth.Secret;
import com.nimbusds.oauth2.sdk.http.HTTPResponse;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.token.AccessToken;

import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.http.BoundedSender;

/**
 * An OAuth 2.0 client-credentials access token for an outbound provider (RFC 6749 §4.4, client authenticated with
 * HTTP Basic). The protocol is Nimbus OAuth 2.0 SDK's, sent through {@link BoundedSender}: the whole exchange has
 * one deadline and the answer is cut off at {@value #MAX_RESPONSE_BYTES} bytes.
 * <p>
 * The token is kept until shortly before it expires (10 % of its lifetime, at most 30 s, early), and concurrent
 * callers share one fetch. A token the provider rejected is dropped once, so the next caller fetches a new one.
 * A failed fetch is remembered for {@link #FAILURE_BACKOFF} (by the clock) so that a down token endpoint is not
 * asked once per request, nor logged once per request. Neither the secret nor a token is ever logged.
 */
public final class ClientCredentialsTokens {

    private static final Logger LOG = Logger.getLogger(ClientCredentialsTokens.class.getName());
    static final int MAX_RESPONSE_BYTES = 64 * 1024;
    static final int MAX_TOKEN_CHARS = 8 * 1024;
    static final Duration MAX_MARGIN = Duration.ofSeconds(30);
    /** When the endpoint does not say ({@code expires_in} absent or not positive). */
    static final Duration DEFAULT_LIFETIME = Duration.ofMinutes(5);
    /** An absurd {@code expires_in} is not trusted beyond this. */
    static final Duration MAX_LIFETIME = Duration.ofHours(24);
    static final Duration FAILURE_BACKOFF = Duration.ofSeconds(5);
    // RFC 6749 appendix A.12: access-token = 1*VSCHAR; anything else could not go into a header
    private static final Pattern VSCHAR = Pattern.compile("[\\x20-\\x7E]+");
    private static final Pattern ERROR_CODE = Pattern.compile("[a-z_]{1,40}");

    private record Cached(String token, Instant refreshAt) {
    }

    private record Failure(BusinessException error, Instant until) {
    }

    private final URI endpoint;
    private final ClientSecretBasic client;
    private final Scope scope;
    private final Clock clock;
    private final BoundedSender sender;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile Cached cached;
    private Failure failure;

    public ClientCredentialsTokens(URI endpoint, String clientId, String clientSecret, String scope, Clock clock,
                                   Duration timeout) {
        this.endpoint = endpoint;
        this.client = new ClientSecretBasic(new ClientID(clientId), new Secret(clientSecret));
        this.scope = scope == null || scope.isBlank() ? null : Scope.parse(scope);
        this.clock = clock;
        this.sender = new BoundedSender(timeout, timeout, MAX_RESPONSE_BYTES);
    }

    /** A valid access token: the cached one, or one fetched now (one fetch however many callers wait for it). */
    public String token() {
        Cached current = cached;
        if (current != null && clock.instant().isBefore(current.refreshAt())) {
            return current.token();
        }
        lock.lock();
        try {
            Instant now = clock.instant();
            current = cached;
            if (current != null && now.isBefore(current.refreshAt())) {
                return current.token();
            }
            if (failure != null && now.isBefore(failure.until())) {
                throw failure.error();
            }
            try {
                cached = fetch(now);
                failure = null;
                return cached.token();
            } catch (BusinessException e) {
                failure = new Failure(e, now.plus(FAILURE_BACKOFF));
                throw e;
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The provider answered 401 to this token: forget it, unless another caller already replaced it, so that many
     * rejected calls at once still lead to one new fetch.
     */
    public void rejected(String token) {
        lock.lock();
        try {
            if (cached != null && cached.token().equals(token)) {
                cached = null;
            }
        } finally {
            lock.unlock();
        }
    }

    private Cached fetch(Instant now) {
        var request = new TokenRequest.Builder(endpoint, client, new ClientCredentialsGrant()).scope(scope).build();
        HTTPResponse answer;
        try {
            answer = request.toHTTPRequest().send(sender);
        } catch (BoundedSender.TooLarge e) {
            LOG.warning("The model provider's token endpoint sent an answer over " + MAX_RESPONSE_BYTES + " bytes");
            throw upstream("sent an answer that is too large");
        } catch (IOException e) {
            LOG.warning(() -> "The model provider's token endpoint is unreachable: " + e.getClass().getSimpleName());
            throw new BusinessException(Problem.UNAVAILABLE,
                    "The language model provider's token endpoint is unreachable; try again shortly");
        }
        TokenResponse parsed;
        try {
            parsed = TokenResponse.parse(answer);
        } catch (ParseException | RuntimeException e) {
            int status = answer.getStatusCode();
            LOG.warning(() -> "The model provider's token endpoint answered " + status + " with no usable token");
            throw upstream("sent no usable token");
        }
        if (parsed instanceof TokenErrorResponse refused) {
            String code = code(refused.getErrorObject());
            int status = answer.getStatusCode();
            if (code == null) {
                LOG.warning(() -> "The model provider's token endpoint answered " + status);
                throw upstream("answered " + status);
            }
            LOG.warning(() -> "The model provider's token endpoint refused the client: " + status + " " + code);
            throw upstream("refused the client credentials (" + code + ")");
        }
        AccessToken token = ((AccessTokenResponse) parsed).getTokens().getAccessToken();
        String value = token.getValue();
        if (value == null || value.length() > MAX_TOKEN_CHARS || !VSCHAR.matcher(value).matches()) {
            LOG.warning("The model provider's token endpoint sent an access token that cannot be used");
            throw upstream("sent no usable token");
        }
        Duration lifetime = token.getLifetime() > 0 ? Duration.ofSeconds(Math.min(token.getLifetime(),
                MAX_LIFETIME.toSeconds())) : DEFAULT_LIFETIME;
        Duration margin = lifetime.dividedBy(10);
        if (margin.compareTo(MAX_MARGIN) > 0) {
            margin = MAX_MARGIN;
        }
        // counted from before the request, so the token is never kept past its real expiry
        return new Cached(value, now.plus(lifetime).minus(margin));
    }

    /** The OAuth error code when it is one (RFC 6749 §5.2 style), else null: never the endpoint's free text. */
    private static String code(ErrorObject error) {
        String code = error == null ? null : error.getCode();
        return code != null && ERROR_CODE.matcher(code).matches() ? code : null;
    }

    private static BusinessException upstream(String what) {
        return new BusinessException(Problem.UPSTREAM, "The language model provider's token endpoint " + what);
    }
}
