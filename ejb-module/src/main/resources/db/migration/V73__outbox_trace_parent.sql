-- The W3C traceparent of the span that wrote the event (null when tracing is off or nothing was traced): the relay's
-- publish span continues that trace and hands its own context on in the message (README, "Traces").
ALTER TABLE outbox_events ADD COLUMN trace_parent VARCHAR(55);
