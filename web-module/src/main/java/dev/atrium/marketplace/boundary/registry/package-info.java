/**
 * The registry's API: agents listed, read and submitted ({@code AgentsResource}, whose {@code ID} the other
 * agent resources share), their versions, the card schemas, the A2A and MCP views of a card, and an author's agents.
 */
package dev.atrium.marketplace.boundary.registry;
