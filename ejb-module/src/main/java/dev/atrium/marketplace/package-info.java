/**
 * The agent marketplace of spec 03: the registry, the submission pipeline, review and takedown, versions and their
 * gradual rollout, the invoke gateway and its sandbox runs, trust, semantic search and recommendation, and the
 * agent-to-agent (A2A) and tool (MCP) views of a card.
 *
 * <p>Owns: the {@code agents} record (status {@code pending}, {@code active}, {@code suspended}, {@code rejected};
 * the listing fields of the version it shows, which version serves and which rolls out), {@code agent_versions}
 * (each accepted version with its card, bundle key, embedding, checks and review state), run and usage records,
 * incidents and reports, and
 * {@code agent_events} (every status move with who, when and why); the agent-card JSON Schema
 * ({@code marketplace/agent-card.schema.json}); agent bundles in the object store under {@code marketplace/agents/};
 * the in-process embedding model (all-MiniLM-L6-v2, int8, on ONNX Runtime) and each instance's in-memory Lucene index of
 * active agents, rebuilt at start and kept current by the {@code marketplace.agents} topic.
 *
 * <p>Public operations: {@code SubmissionService.submit}, {@code ReviewService} (submissions, approve, reject,
 * take down), {@code AgentService} (get, list, mine, history), {@code SearchService} (search, recommend),
 * {@code CardValidation} (the card schema), {@code InvokeGateway.invoke} (routed to a version by
 * {@code VersionRouting}; agents' calls to their dependencies with {@code DependencyTokens}), {@code RunService},
 * {@code UsageQueries} (usage records for billing and for their callers), {@code TrustService}, {@code ReportService}, {@code RescanService},
 * {@code QualityMeasure}.
 *
 * <p>Leaves out: the sandbox itself (the {@code sandbox} module), and billing (balances, the ledger, payouts: the
 * {@code billing} context, which reads the usage records through their events and {@code UsageQueries}; the invoke
 * gateway places and releases its balance holds through {@code CallFunds}, which billing implements, so the two depend
 * on each other one way only). Authors are users by id, named through the identity context's {@code UserService}; the
 * free-tier limit asks the AI context's {@code TenantService.onFreeTier}.
 *
 * <p>Where things are: {@code control} keeps what the others use ({@code UsageQueries}, {@code UsageRecorded},
 * {@code CallFunds}, {@code Requester}), the agent repository and change events; beneath it
 * {@code control.registry}, {@code control.submission} (with review), {@code control.checks},
 * {@code control.runtime} (the invoke gateway and the sandbox), {@code control.trust}, {@code control.quality},
 * {@code control.rollout}, {@code control.search} and {@code control.pii}. {@code entity} keeps the agent, its
 * versions, card and history; beneath it {@code entity.checks} (what the checks found), {@code entity.runtime} (runs,
 * usage records, secrets), {@code entity.trust} (reports, incidents) and {@code entity.quality} (scores, reviews);
 * the agent refers only to the checks' and quality's values, so the sub-packages form no cycle with it. The
 * quality-scoring and re-scan jobs, with their schedules, are in the {@code batch-jobs} module's
 * {@code marketplace.batch}. In the web module the resources
 * are split the same way under {@code boundary} ({@code boundary.registry}, {@code boundary.submission},
 * {@code boundary.runtime}, …); {@code boundary} itself keeps what they share.
 *
 * <p>Its configuration lives in {@code control.MarketplaceConfig}.
 */
package dev.atrium.marketplace;
