package dev.atrium.identity.control.oauth;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;

import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.oauth2.sdk.AuthorizationRequest;
import com.nimbusds.oauth2.sdk.ResponseType;
import com.nimbusds.oauth2.sdk.Scope;
import com.nimbusds.oauth2.sdk.id.ClientID;
import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;

import dev.atrium.identity.control.Caller;
import dev.atrium.identity.control.RequestOrigin;
import dev.atrium.identity.control.account.RoleRepository;
import dev.atrium.identity.control.account.UserRepository;
import dev.atrium.identity.control.audit.AuditAction;
import dev.atrium.identity.control.audit.AuditService;
import dev.atrium.identity.control.login.KnownCallers;
import dev.atrium.identity.control.login.LoginService;
import dev.atrium.identity.control.token.TokenPair;
import dev.atrium.identity.entity.EmailAddress;
import dev.atrium.identity.entity.OAuthAccount;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * Login through an external provider with the OAuth 2.0 authorization code flow and PKCE (spec 01 "External
 * login"), and binding a further provider to a logged-in user.
 *
 * <p>Who the external account is: the binding (provider, subject) if one exists. Otherwise a local account with the
 * same e-mail address is joined only when the provider asserts {@code email_verified}; without that assertion
 * anyone could claim someone else's address at a provider that does not check it, so the login is refused (409)
 * and the owner links the provider from their account instead. With no local account for the address, a new,
 * active, password-less user is created.
 */
@Stateless
public class ExternalLoginService {

    static final int USERNAME_MAX = User.USERNAME_MAX;

    @Inject
    OAuthProviders providers;

    @Inject
    AuthorizationStates states;

    @Inject
    OAuthHttp http;

    @Inject
    OAuthAccountRepository accounts;

    @Inject
    UserRepository users;

    @Inject
    KnownCallers callers;

    @Inject
    RoleRepository roles;

    @EJB
    LoginService logins;

    @EJB
    AuditService audit;

    @Inject
    Clock clock;

    /**
     * Where to send the browser: the provider's authorization endpoint with a fresh state, PKCE challenge and nonce.
     * A {@code redirect_uri} asked for must be exactly the configured one; the request always carries that one.
     * With {@code linking}, the callback binds the external account to that user.
     */
    public URI authorizationUrl(String providerName, String requestedRedirectUri, Caller linking) {
        OAuthProvider provider = providers.require(providerName);
        if (requestedRedirectUri != null && !requestedRedirectUri.equals(provider.redirectUri())) {
            throw BusinessException.badRequest("redirect_uri must be exactly the one configured for this provider");
        }
        ProviderEndpoints endpoints = providers.endpoints(provider);
        AuthorizationState state = states.issue(provider.name(), provider.redirectUri(),
                linking == null ? null : linking.userId());
        return new AuthorizationRequest.Builder(ResponseType.CODE, new ClientID(provider.clientId()))
                .endpointURI(URI.create(endpoints.authorizationEndpoint()))
                .redirectionURI(URI.create(state.redirectUri()))
                .scope(Scope.parse(provider.scope()))
                .state(new State(state.state()))
                .codeChallenge(new CodeVerifier(state.codeVerifier()), Pkce.METHOD)
                // sent to plain OAuth 2.0 providers too, which ignore it
                .customParameter("nonce", state.nonce())
                .build().toURI();
    }

    /**
     * The provider sent the browser back: checks the state, exchanges the code, reads who the user is, finds or
     * creates the local user (or binds to the linking one), and issues Atrium's tokens. Every refusal is audited.
     */
    public TokenPair callback(String providerName, String code, String stateValue, String error,
                              RequestOrigin origin) {
        OAuthProvider provider = providers.require(providerName);
        Optional<AuthorizationState> state = states.consume(provider.name(), stateValue);
        Long userId = state.map(AuthorizationState::linkUserId).orElse(null);
        try {
            if (error != null && !error.isBlank()) {
                throw new BusinessException(Problem.BAD_REQUEST, "The provider did not authorize the login",
                        "error: " + (error.matches("[a-z_]{1,64}") ? error : "unknown"));
            }
            AuthorizationState s = state.orElseThrow(() -> BusinessException.badRequest(
                    "Unknown, used or expired state: start the login again"));
            if (!s.redirectUri().equals(provider.redirectUri())) {
                throw BusinessException.badRequest("The redirect URI changed since the login started: start again");
            }
            if (code == null || code.isBlank() || code.length() > 2048) {
                throw BusinessException.badRequest("code is required");
            }
            ProviderEndpoints endpoints = providers.endpoints(provider);
            JsonObject tokens = http.exchangeCode(provider, endpoints, code, s.redirectUri(), s.codeVerifier());
            ExternalIdentity identity = identify(provider, endpoints, tokens, s);
            User user = s.linking() ? link(provider, identity, s) : signIn(provider, identity);
            userId = user.id();
            if (!user.isActive()) {
                throw LoginService.inactive(user);
            }
            return logins.tokensFor(user, origin, AuditAction.OAUTH_LOGIN);
        } catch (BusinessException refused) {
            audit.record(AuditAction.OAUTH_LOGIN, userId, origin, false);
            throw refused;
        }
    }

    private ExternalIdentity identify(OAuthProvider provider, ProviderEndpoints endpoints, JsonObject tokens,
                                      AuthorizationState state) {
        String accessToken = tokens.getString("access_token");
        Optional<String> idToken = tokens.get("id_token") instanceof JsonString s ? Optional.of(s.getString())
                : Optional.empty();
        if (idToken.isPresent() && endpoints.issuer().isPresent()) {
            ExternalIdentity identity = ExternalIdentity.of(validated(provider, endpoints, idToken.get(), state)
                    .getClaims());
            if (identity.email().isEmpty() && endpoints.userinfoEndpoint().isPresent()) {
                ExternalIdentity info = ExternalIdentity.of(
                        http.getJson("userinfo", endpoints.userinfoEndpoint().get(), accessToken));
                // OpenID Connect Core 5.3.2: userinfo about another subject must not be used
                if (info.subject().equals(identity.subject())) {
                    identity = identity.completedBy(info);
                }
            }
            return identity;
        }
        String userinfo = endpoints.userinfoEndpoint()
                .orElseThrow(() -> OAuthHttp.upstream("no ID token and no userinfo endpoint"));
        ExternalIdentity identity = ExternalIdentity.of(http.getJson("userinfo", userinfo, accessToken));
        if (identity.subject().isEmpty()) {
            throw BusinessException.badRequest("The provider did not name the account (no subject)");
        }
        return identity;
    }

    private JWTClaimsSet validated(OAuthProvider provider, ProviderEndpoints endpoints, String idToken,
                                   AuthorizationState state) {
        String jwks = endpoints.jwksUri().orElseThrow(() -> OAuthHttp.upstream("no key set to check ID tokens"));
        var expected = new IdTokenValidator.Expectations(endpoints.issuer().orElseThrow(), provider.clientId(),
                state.nonce(), endpoints.idTokenAlgorithms());
        Instant now = clock.instant();
        try {
            try {
                return IdTokenValidator.validate(idToken, providers.keys(jwks, false), expected, now);
            } catch (InvalidIdTokenException e) {
                if (e.reason() != InvalidIdTokenException.Reason.UNKNOWN_KEY) {
                    throw e;
                }
                // the provider may have rotated its keys since they were read
                return IdTokenValidator.validate(idToken, providers.keys(jwks, true), expected, now);
            }
        } catch (InvalidIdTokenException e) {
            throw new BusinessException(Problem.BAD_REQUEST, "The provider's ID token is not valid",
                    "reason: " + e.getMessage());
        }
    }

    private User signIn(OAuthProvider provider, ExternalIdentity identity) {
        Optional<OAuthAccount> bound = accounts.find(provider.name(), identity.subject());
        if (bound.isPresent()) {
            return users.find(bound.get().userId())
                    .orElseThrow(() -> BusinessException.conflict("The bound account no longer exists: try again"));
        }
        EmailAddress address = identity.email().flatMap(ExternalLoginService::address)
                .orElseThrow(() -> BusinessException.badRequest("The provider did not share a usable e-mail "
                        + "address, which a new account needs: allow access to the e-mail address"));
        Instant now = clock.instant();
        Optional<User> local = users.findByEmail(address);
        User user;
        if (local.isPresent()) {
            if (!identity.emailVerified()) {
                throw BusinessException.conflict("An account with this e-mail address already exists, and "
                        + provider.name() + " does not confirm that the address is verified: log in with your "
                        + "password, then link " + provider.name() + " from your account");
            }
            user = local.get();
            user.confirmEmailThroughProvider(now);
            callers.changed(user.id());
        } else {
            user = User.external(address, username(identity, address), roles.require(User.DEFAULT_ROLE), now);
            if (!users.add(user)) {
                throw BusinessException.conflict("The account was created by another login at the same moment: "
                        + "try again");
            }
        }
        bind(user, provider, identity, now);
        return user;
    }

    private User link(OAuthProvider provider, ExternalIdentity identity, AuthorizationState state) {
        User user = users.find(state.linkUserId()).filter(User::isActive).filter(u -> u.accepts(state.issuedAt()))
                .orElseThrow(() -> BusinessException.unauthenticated(
                        "The login that asked to link this provider has ended: log in and start again"));
        Optional<OAuthAccount> bound = accounts.find(provider.name(), identity.subject());
        if (bound.isPresent()) {
            if (bound.get().userId() != user.id()) {
                throw BusinessException.conflict("This " + provider.name()
                        + " account is already bound to another user");
            }
            return user;
        }
        bind(user, provider, identity, clock.instant());
        return user;
    }

    private void bind(User user, OAuthProvider provider, ExternalIdentity identity, Instant now) {
        if (!accounts.add(new OAuthAccount(user.id(), provider.name(), identity.subject(), now))) {
            throw BusinessException.conflict("This " + provider.name()
                    + " account was bound by another login at the same moment: try again");
        }
    }

    private static Optional<EmailAddress> address(String email) {
        try {
            return Optional.of(EmailAddress.of(email));
        } catch (BusinessException malformed) {
            return Optional.empty();
        }
    }

    /** The provider's user name, else the full name, else the address's local part; cut to the column's length. */
    static String username(ExternalIdentity identity, EmailAddress address) {
        String name = identity.preferredUsername().or(identity::name)
                .orElse(address.value().substring(0, address.value().indexOf('@'))).strip();
        if (name.isEmpty()) {
            name = "user";
        }
        return name.length() > USERNAME_MAX ? name.substring(0, USERNAME_MAX).strip() : name;
    }
}
