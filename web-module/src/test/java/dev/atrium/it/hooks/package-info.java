/**
 * The test hooks the integration tests' server carries (ItWar puts them in its test jar; the product has none): a
 * clock that {@code /admin/clock} moves, and the crash points that halt the JVM after a commit or inside a payout
 * chunk ({@code /admin/test/crash-after-commit}). Each is still switched on by its setting
 * ({@code atrium.clock.adjustable}, {@code atrium.test.crash-after-commit}), else 404.
 */
package dev.atrium.it.hooks;
