package dev.atrium.identity.control;

import java.util.HashSet;
import java.util.Set;

import org.eclipse.microprofile.jwt.Claims;
import org.eclipse.microprofile.jwt.JsonWebToken;


/**
 * The container's principal for an authenticated caller. It implements MicroProfile's {@link JsonWebToken} so
 * resources read claims through the standard API, whichever credential was presented.
 */
public final class CallerPrincipal implements JsonWebToken {

    private final Caller caller;

    public CallerPrincipal(Caller caller) {
        this.caller = caller;
    }

    public Caller caller() {
        return caller;
    }

    @Override
    public String getName() {
        return Long.toString(caller.userId());
    }

    @Override
    public Set<String> getClaimNames() {
        return Set.of("sub", "role", "type", "exp", "jti", "groups", "upn", "raw_token");
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getClaim(String claimName) {
        Object value = switch (claimName) {
            case "sub" -> Long.toString(caller.userId());
            case "upn" -> caller.email();
            case "role" -> caller.role();
            case "type" -> "access";
            case "exp" -> caller.expiresAt() == null ? null : caller.expiresAt().getEpochSecond();
            case "jti" -> caller.tokenId();
            case "groups" -> new HashSet<>(caller.groups());
            case "raw_token" -> caller.rawToken();
            default -> null;
        };
        return (T) value;
    }

    @Override
    public <T> T getClaim(Claims claim) {
        return getClaim(claim.name());
    }

    @Override
    public String toString() {
        return "CallerPrincipal[" + caller.userId() + "]";
    }
}
