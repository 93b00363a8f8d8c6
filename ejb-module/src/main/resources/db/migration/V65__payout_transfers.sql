-- Processor payouts are Stripe Connect transfers to the developer's connected account (acct_…). A payout waits as
-- PENDING until Stripe's signed event confirms the transfer (PAID) or reports it failed or reversed (FAILED, and the
-- money is posted back to the developer's earnings). The status SENT was written without any money moving: such
-- payouts are PENDING again, to be transferred by the next run of their month.
ALTER TABLE billing_payout_accounts ADD COLUMN connected_account VARCHAR(64);

ALTER TABLE billing_payouts ADD COLUMN connected_account VARCHAR(64);
ALTER TABLE billing_payouts ADD COLUMN transfer_id VARCHAR(64);
ALTER TABLE billing_payouts ADD COLUMN status_reason VARCHAR(300);
ALTER TABLE billing_payouts ADD COLUMN updated_at TIMESTAMP WITH TIME ZONE;

UPDATE billing_payouts SET status = 'PENDING', status_reason = 'was marked sent without a transfer'
    WHERE status = 'SENT';

CREATE UNIQUE INDEX billing_payouts_transfer ON billing_payouts (transfer_id);
