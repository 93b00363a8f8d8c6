/**
 * The registry as users see it: reading agents ({@code AgentService}), installations, ratings, an agent's secrets
 * (sealed by {@code SecretCipher}), the price filter of the list, and a deleted user's agents leaving the listing.
 */
package dev.atrium.marketplace.control.registry;
