/**
 * What the pre-listing checks found, kept with a version: {@code SafetyReport} (each check's {@code CheckResult}, its
 * {@code CheckStatus} and {@code CheckFinding}s by {@code Severity}) and the smoke tests' {@code SmokeStatus}. The
 * checks themselves run in {@code control.checks}.
 */
package dev.atrium.marketplace.entity.checks;
