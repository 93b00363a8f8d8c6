/**
 * Passwords: changing one, and the forgotten-password reset by e-mailed token ({@code PasswordResource}).
 */
package dev.atrium.identity.boundary.password;
