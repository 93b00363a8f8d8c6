/**
 * Reports: an internal portal, a subsystem of its own beside Atrium, that trusts Atrium's single sign-on tokens
 * through MicroProfile JWT alone.
 * <p>
 * Owns: nothing stored. Public operations: the caller's month ({@code GET /reports/me}: usage and developer
 * revenue) and, for administrators, the platform's month ({@code GET /reports/platform}: the billing
 * reconciliation).
 * <p>
 * How it trusts a caller: the container verifies the RS256 token against Atrium's published JWKS
 * ({@code mp.jwt.verify.publickey.location}) and its issuer ({@code mp.jwt.verify.issuer}); roles come from the
 * token's {@code groups} claim and guard the resources with {@code @RolesAllowed}. There is no token code here.
 * <p>
 * Leaves out: any access to Atrium's tables. It reads Atrium only through its REST API, with the caller's own token,
 * so Atrium's permission checks and audit apply as if the caller had asked Atrium directly.
 */
package dev.atrium.reports;
