/**
 * Signing in and who is calling: login, refresh and logout ({@code LoginResource}), the console and SSO logins,
 * CSRF tokens and API keys; and the authentication of every request (the Jakarta Authentication mechanism and its
 * module, the credential and CSRF filters, {@code AccessControlFeature} for the role and permission annotations).
 */
package dev.atrium.identity.boundary.login;
