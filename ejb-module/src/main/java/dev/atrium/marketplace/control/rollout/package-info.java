/**
 * Versions and their gradual rollout: {@code RolloutService} moves a new version through 10 %, 50 % and all callers
 * ({@code RolloutPolicy}, every minute by {@code RolloutTimer}); {@code VersionRouting} picks the version that serves.
 */
package dev.atrium.marketplace.control.rollout;
