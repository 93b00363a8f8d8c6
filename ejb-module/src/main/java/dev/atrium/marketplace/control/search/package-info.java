/**
 * Semantic search and recommendation ({@code SearchService}): the embedding model, each instance's in-memory index
 * of active agents (built at start, kept current by the {@code marketplace.agents} topic, reconciled with the
 * database), and the task analyzer.
 */
package dev.atrium.marketplace.control.search;
