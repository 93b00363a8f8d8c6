/**
 * What running agents leaves on record: each sandbox run ({@code AgentRun}, {@code RunStatus}), its usage record with
 * the price ({@code AgentUsage}, which billing reads through {@code control.UsageQueries}), and the sealed secrets an
 * author sets for an agent's environment ({@code AgentSecret}). The invoke gateway that writes them is in
 * {@code control.runtime}.
 */
package dev.atrium.marketplace.entity.runtime;
