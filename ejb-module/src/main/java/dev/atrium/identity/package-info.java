/**
 * Identity and access: who users are, how they prove it, and what they may do.
 *
 * <p>Owns: users (e-mail, username, argon2id hash, active flag, roles), roles and permissions, the audit log, the
 * signing key ring (HS256 and RS256, encrypted at rest), sessions, the token blacklist, CSRF tokens, login limits
 * and lockouts, password reset links, SSO tickets, the first administrator.
 *
 * <p>Public operations: {@code RegistrationService} (register, verify), {@code LoginService} (login in token or
 * session mode, the operators' console's session sign-in, refresh, tokens for externally proven users),
 * {@code LogoutService}, {@code PasswordService}, {@code Authenticator} (bearer and session credentials into a
 * {@code Caller} with roles and permissions), {@code AccessAdminService} (users, roles, keys, ending a user's
 * sessions), {@code AuditService}, {@code SsoService}, {@code TokenService}, {@code UserService} (other contexts see
 * users only as {@code UserSummary} or {@code UserProfile} by id); for the other contexts' resources,
 * {@code Callers} (the request's {@code Caller}), {@code RequiresPermission} and {@code CsrfExempt}.
 *
 * <p>Leaves out: the AI backend's API keys and tiers, which attach to users from their own context.
 *
 * <p>Where things are: {@code control} holds what other contexts and resources use ({@code UserService},
 * {@code UserSummary}, {@code UserDeleted}, {@code Caller} and {@code Callers}, {@code RequestOrigin},
 * {@code RequiresPermission}, {@code CsrfExempt}) and {@code IdentityConfig}; beneath it {@code control.login}
 * (login, logout, sessions, SSO, API keys, {@code Authenticator}, security alerts), {@code control.token} (tokens and
 * the key ring), {@code control.password}, {@code control.account} (registration, administration, the user and role
 * repositories), {@code control.audit} and {@code control.oauth} (external login).
 * In the web module the resources are split the same way under {@code boundary} ({@code boundary.login} with the
 * request authentication, {@code boundary.account}, {@code boundary.password}, {@code boundary.admin},
 * {@code boundary.token}, {@code boundary.oauth}); {@code boundary} itself keeps what they share.
 *
 * <p>Its configuration lives in {@code control.IdentityConfig}.
 */
package dev.atrium.identity;
