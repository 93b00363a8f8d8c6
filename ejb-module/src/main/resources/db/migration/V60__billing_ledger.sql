-- The billing context's double-entry ledger. Accounts: a user's balance, a developer's earnings, and the
-- platform's revenue, model cost, promotions (credits it grants), external payments (money coming in from a payment
-- processor) and payouts. Every movement is a journal entry whose lines sum to zero; an account's balance is the sum
-- of its lines, cached on its row, which is locked while an entry posts. Entries and lines are only ever inserted.
CREATE TABLE billing_accounts (
    id         UUID PRIMARY KEY,
    kind       VARCHAR(30)    NOT NULL,
    owner_id   BIGINT         NOT NULL,
    balance    NUMERIC(19, 6) NOT NULL DEFAULT 0,
    held       NUMERIC(19, 6) NOT NULL DEFAULT 0,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT billing_accounts_owner UNIQUE (kind, owner_id),
    CONSTRAINT billing_accounts_held CHECK (held >= 0)
);

CREATE TABLE journal_entries (
    id        UUID PRIMARY KEY,
    kind      VARCHAR(30)  NOT NULL,
    reference VARCHAR(120) NOT NULL,
    actor_id  BIGINT,
    memo      VARCHAR(500),
    -- when its cause happened (a usage's recorded_at): the day reconciliation counts it under
    occurred_at TIMESTAMP WITH TIME ZONE NOT NULL,
    posted_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT journal_entries_reference UNIQUE (reference)
);

CREATE TABLE journal_lines (
    id         UUID PRIMARY KEY,
    entry_id   UUID           NOT NULL REFERENCES journal_entries (id),
    line_no    INTEGER        NOT NULL,
    account_id UUID           NOT NULL REFERENCES billing_accounts (id),
    amount     NUMERIC(19, 6) NOT NULL,
    posted_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT journal_lines_entry_line UNIQUE (entry_id, line_no)
);
CREATE INDEX journal_lines_account ON journal_lines (account_id, posted_at);
CREATE INDEX journal_entries_kind_occurred ON journal_entries (kind, occurred_at);

-- A hold reserves part of a user's balance for a paid invocation until the billing consumer settles it.
CREATE TABLE billing_holds (
    id         UUID PRIMARY KEY,
    account_id UUID           NOT NULL REFERENCES billing_accounts (id),
    amount     NUMERIC(19, 6) NOT NULL,
    status     VARCHAR(20)    NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL,
    closed_at  TIMESTAMP WITH TIME ZONE
);
CREATE INDEX billing_holds_open ON billing_holds (status, created_at);

-- Top-ups: an intent created by the user, credited once when its processor confirms it.
CREATE TABLE billing_top_ups (
    id           UUID PRIMARY KEY,
    user_id      BIGINT         NOT NULL,
    amount       NUMERIC(19, 6) NOT NULL,
    processor    VARCHAR(30)    NOT NULL,
    external_id  VARCHAR(120),
    status       VARCHAR(20)    NOT NULL,
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    confirmed_at TIMESTAMP WITH TIME ZONE
);
CREATE INDEX billing_top_ups_user ON billing_top_ups (user_id, created_at);

-- Where a developer's payouts go: a bank account (IBAN, checked by its checksum) or the payment processor.
CREATE TABLE billing_payout_accounts (
    user_id     BIGINT PRIMARY KEY,
    method      VARCHAR(20)  NOT NULL,
    holder_name VARCHAR(140) NOT NULL,
    iban        VARCHAR(34),
    bic         VARCHAR(11),
    updated_at  TIMESTAMP WITH TIME ZONE NOT NULL
);

-- The monthly payout run's outcome per developer and month: paid (to the bank file or the processor), or carried to
-- the next month (below the minimum, or no payout account). Unique per developer and month: a month pays once.
CREATE TABLE billing_payouts (
    id           UUID PRIMARY KEY,
    developer_id BIGINT         NOT NULL,
    pay_month    VARCHAR(7)     NOT NULL,
    amount       NUMERIC(19, 6) NOT NULL,
    status       VARCHAR(20)    NOT NULL,
    method       VARCHAR(20),
    holder_name  VARCHAR(140),
    iban         VARCHAR(34),
    bic          VARCHAR(11),
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT billing_payouts_month UNIQUE (developer_id, pay_month)
);
CREATE INDEX billing_payouts_by_month ON billing_payouts (pay_month, status);
