/**
 * The agent marketplace of spec 03, part I: the registry, the submission pipeline, review and takedown, semantic
 * search and recommendation, and the agent-to-agent (A2A) and tool (MCP) views of a card.
 *
 * <p>Owns: the {@code agents} record (status {@code pending}, {@code active}, {@code suspended}, {@code rejected}),
 * {@code agent_submissions} (each accepted version with its card, bundle key and smoke-test outcome) and
 * {@code agent_events} (every status move with who, when and why); the agent-card JSON Schema
 * ({@code marketplace/agent-card.schema.json}); agent bundles in the object store under {@code marketplace/agents/};
 * the in-process embedding model (all-MiniLM-L6-v2 on ONNX Runtime) and each instance's in-memory Lucene index of
 * active agents, rebuilt at start and kept current by the {@code marketplace.agents} topic.
 *
 * <p>Public operations: {@code SubmissionService.submit}, {@code ReviewService} (submissions, approve, reject,
 * take down), {@code AgentService} (get, list, mine, history), {@code SearchService} (search, recommend),
 * {@code CardValidation} (the card schema).
 *
 * <p>Leaves out: running agents (the sandbox, invocation, smoke-test execution), metering, billing, reviews by users
 * and trust promotion, which come with the marketplace's later parts. Authors are users by id, named through the
 * identity context's {@code UserService}; the free-tier limit reads the tier from the AI context's
 * {@code TenantService}.
 */
package dev.atrium.marketplace;
