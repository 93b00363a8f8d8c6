/**
 * Signed tokens and their keys: {@code TokenService} signs and verifies HS256 and RS256 tokens, the key ring (keys
 * encrypted at rest under the {@code MasterSecret}) rotates on a schedule, and the allowed lifetimes are checked at
 * start.
 */
package dev.atrium.identity.control.token;
