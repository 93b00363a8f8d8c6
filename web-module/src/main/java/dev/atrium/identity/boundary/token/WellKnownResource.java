package dev.atrium.identity.boundary.token;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.annotation.security.PermitAll;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import dev.atrium.identity.control.token.KeyRing;
import dev.atrium.identity.control.token.TokenService;

/**
 * What subsystems need to verify SSO tokens on their own: the public RS256 keys (current and previous) as a JWKS,
 * and a discovery document naming the issuer, the JWKS and the SSO endpoints.
 */
@Path(".well-known")
@ApplicationScoped
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "sso")
public class WellKnownResource {

    @Inject
    KeyRing keys;

    @Inject
    TokenService tokens;

    @GET
    @Path("jwks.json")
    @PermitAll
    @Operation(summary = "The public keys that verify SSO tokens (RS256), by kid")
    public Map<String, Object> jwks() {
        return keys.publicJwks().toJSONObject(true);
    }

    @GET
    @Path("openid-configuration")
    @PermitAll
    @Operation(summary = "Discovery: issuer, JWKS location, signing algorithm and SSO endpoints")
    public Map<String, Object> configuration() {
        String issuer = tokens.issuer();
        var doc = new LinkedHashMap<String, Object>();
        doc.put("issuer", issuer);
        doc.put("jwks_uri", issuer + "/.well-known/jwks.json");
        doc.put("id_token_signing_alg_values_supported", List.of("RS256"));
        doc.put("token_endpoint_auth_methods_supported", List.of("none"));
        doc.put("subject_types_supported", List.of("public"));
        doc.put("claims_supported", List.of("sub", "role", "type", "exp", "iat", "iss", "jti"));
        doc.put("sso_login_endpoint", issuer + "/sso/login");
        doc.put("sso_ticket_validation_endpoint", issuer + "/sso/validate");
        doc.put("userinfo_endpoint", issuer + "/me/permissions");
        doc.put("end_session_endpoint", issuer + "/logout");
        return doc;
    }
}
