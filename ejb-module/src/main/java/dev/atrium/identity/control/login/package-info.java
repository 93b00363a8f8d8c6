/**
 * Signing in and out and who is calling: password login and refresh ({@code LoginService}), logout and the token
 * blacklist, sessions, SSO, API keys, CSRF tokens, a presented credential turned into a {@code Caller}
 * ({@code Authenticator}, {@code KnownCallers}), the login limits, and the security signals and alerts they raise.
 */
package dev.atrium.identity.control.login;
