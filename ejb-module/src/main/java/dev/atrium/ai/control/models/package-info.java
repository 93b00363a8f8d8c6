/**
 * The models: the catalog clients name them from ({@code ModelCatalog}, {@code ModelDefinition}), the one way a call
 * reaches a model ({@code ModelGateway}, its per-instance limit) and the providers behind it (OpenAI-compatible with
 * its client-credentials tokens, the {@code echo} development model), what a call takes and gives ({@code ChatTurn},
 * {@code Completion}, {@code Usage}), and the {@code models} line of {@code /health}.
 */
package dev.atrium.ai.control.models;
