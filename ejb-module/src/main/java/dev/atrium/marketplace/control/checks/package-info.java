/**
 * The pre-listing checks ({@code SafetyChecks}): smoke tests, the static scan, dependencies against advisories,
 * prompt injection, the network audit, time and memory, and an image's packages and files.
 */
package dev.atrium.marketplace.control.checks;
