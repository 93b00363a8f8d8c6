/**
 * The AI application backend of spec 02: models, chat, tasks, files and tenant quotas.
 *
 * <p>Owns: the model catalog and providers ({@code echo}, OpenAI-compatible), the per-instance limit on model
 * calls, tenants and their tiers (kept between requests under a version in the shared store), the daily quotas,
 * conversations and messages, tasks, files and their parsing, the daily usage reports.
 *
 * <p>Public operations: {@code TenantService.onFreeTier} (read by the marketplace), {@code QuotaService},
 * {@code ModelGateway}, {@code ModelCatalog}, and the chat, task and file services; {@code ModelsHealth} (the
 * {@code models} line of {@code /health}). The message-driven beans of its queues ({@code TasksListener},
 * {@code FileParseListener}, {@code DeletedUsersListener}) live beside their handlers.
 *
 * <p>Leaves out: users and credentials (including API keys), which belong to the identity context and are referred
 * to by user id.
 *
 * <p>Where things are: {@code control} keeps what the others and the administrators' resources use (tenants and
 * their tiers, the quotas, the usage ledger and reports, {@code AiAdminService}); beneath it {@code control.models}
 * (catalog, gateway, providers), {@code control.chat} (with the conversations), {@code control.files} and
 * {@code control.tasks}, mirrored by the web module's {@code boundary.chat}, {@code boundary.files},
 * {@code boundary.tasks} and {@code boundary.admin}.
 *
 * <p>Its configuration lives in {@code control.AiConfig}.
 */
package dev.atrium.ai;
