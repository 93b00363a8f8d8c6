/**
 * Accounts: registration and e-mail verification, one's own profile ({@code UsersResource}), and the caller's
 * permissions ({@code MeResource}).
 */
package dev.atrium.identity.boundary.account;
