/**
 * External login (spec 01): the OAuth 2.0 authorization and callback endpoints, and a user's linked external
 * accounts.
 */
package dev.atrium.identity.boundary.oauth;
