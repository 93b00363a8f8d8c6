/**
 * Passwords: changing and resetting one ({@code PasswordService}), the policy a new one must meet, and argon2id
 * hashing ({@code PasswordHasher}) on libargon2 or in pure Java.
 */
package dev.atrium.identity.control.password;
