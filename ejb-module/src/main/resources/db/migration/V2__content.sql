-- Blog content (spec 02). author_id refers to users by id only: contexts do not share tables.
CREATE SEQUENCE articles_seq START WITH 50 INCREMENT BY 50;
CREATE SEQUENCE tags_seq START WITH 50 INCREMENT BY 50;
CREATE SEQUENCE comments_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE articles (
    id           BIGINT PRIMARY KEY,
    title        VARCHAR(200)    NOT NULL,
    slug         VARCHAR(220)    NOT NULL,
    body         VARCHAR(100000) NOT NULL,
    summary      VARCHAR(500),
    author_id    BIGINT          NOT NULL,
    status       VARCHAR(20)     NOT NULL,
    published_at TIMESTAMP WITH TIME ZONE,
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    version      BIGINT          NOT NULL DEFAULT 0,
    CONSTRAINT uk_articles_slug UNIQUE (slug),
    CONSTRAINT ck_articles_status CHECK (status IN ('DRAFT', 'PUBLISHED'))
);
CREATE INDEX ix_articles_author ON articles (author_id);
CREATE INDEX ix_articles_status_created ON articles (status, created_at);

CREATE TABLE tags (
    id         BIGINT PRIMARY KEY,
    name       VARCHAR(50) NOT NULL,
    slug       VARCHAR(60) NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT uk_tags_slug UNIQUE (slug)
);

CREATE TABLE article_tags (
    article_id BIGINT NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    tag_id     BIGINT NOT NULL REFERENCES tags (id),
    PRIMARY KEY (article_id, tag_id)
);
CREATE INDEX ix_article_tags_tag ON article_tags (tag_id);

CREATE TABLE comments (
    id         BIGINT PRIMARY KEY,
    article_id BIGINT        NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
    author_id  BIGINT        NOT NULL,
    body       VARCHAR(5000) NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX ix_comments_article ON comments (article_id, created_at);
