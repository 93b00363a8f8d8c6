/**
 * Accounts: registration and e-mail verification, the administrators' work on users, roles and keys
 * ({@code AccessAdminService}), the first administrator ({@code AdminBootstrap}), and the user and role repositories
 * with the permissions each role grants ({@code PermissionCatalog}).
 */
package dev.atrium.identity.control.account;
