-- Users of every service (DESIGN decision 1: one identity, integer ids).
CREATE SEQUENCE users_seq START WITH 50 INCREMENT BY 50;

CREATE TABLE users (
    id              BIGINT PRIMARY KEY,
    email           VARCHAR(320) NOT NULL,
    username        VARCHAR(50)  NOT NULL,
    hashed_password VARCHAR(200),
    is_active       BOOLEAN      NOT NULL DEFAULT FALSE,
    role            VARCHAR(50)  NOT NULL DEFAULT 'user',
    avatar          VARCHAR(500),
    bio             VARCHAR(2000),
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at      TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT uk_users_email UNIQUE (email)
);

CREATE INDEX ix_users_created_at ON users (created_at);
