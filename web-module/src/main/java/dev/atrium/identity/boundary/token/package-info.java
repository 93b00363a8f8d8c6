/**
 * The signing keys: the key ring and rotation on demand ({@code KeysResource}), and the public keys and discovery
 * document under {@code .well-known} for verifying SSO tokens.
 */
package dev.atrium.identity.boundary.token;
