-- Each capability of a version is embedded once, when the version is submitted (or, for older versions, when the
-- search index first needs it), so that recommending for a task is one nearest-neighbour query over capabilities
-- instead of a comparison with every capability of the catalog. The vectors follow the card's capability order.
ALTER TABLE agent_versions ADD COLUMN capability_embeddings BYTEA;
