/**
 * External login (spec 01): the OAuth 2.0 authorization code flow with PKCE against configured providers, OpenID
 * Connect ID token validation, and the bindings of external accounts to local users ({@code oauth_accounts}).
 *
 * <p>Public operations: {@code ExternalLoginService.authorizationUrl/callback} (tokens are issued through
 * {@code LoginService.tokensFor}), {@code OAuthAccountService.list/unlink}.
 *
 * <p>Talks to providers over plain HTTP ({@code java.net.http}) with Nimbus JOSE+JWT for keys and tokens; no OAuth
 * client library. State, verifier and nonce live in the shared key-value store, so any instance may take the
 * callback.
 */
package dev.atrium.identity.control.oauth;
