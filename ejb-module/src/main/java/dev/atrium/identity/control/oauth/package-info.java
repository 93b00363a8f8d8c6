/**
 * External login (spec 01): the OAuth 2.0 authorization code flow with PKCE against configured providers, OpenID
 * Connect ID token validation, and the bindings of external accounts to local users ({@code oauth_accounts}).
 *
 * <p>Public operations: {@code ExternalLoginService.authorizationUrl/callback} (tokens are issued through
 * {@code LoginService.tokensFor}), {@code OAuthAccountService.list/unlink}.
 *
 * <p>The protocol is the Nimbus OAuth 2.0 SDK's (authorization and token requests, client authentication, PKCE,
 * userinfo) and Nimbus JOSE+JWT's (key sets, ID token signatures). State, verifier and nonce live in the shared
 * key-value store, so any instance may take the callback.
 */
package dev.atrium.identity.control.oauth;
