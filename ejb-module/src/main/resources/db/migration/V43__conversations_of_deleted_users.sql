-- A deleted user's conversations go with them (their messages follow through messages.conversation_id). Tasks and
-- API keys already cascade from users. Conversations of users deleted before this migration are removed first.
DELETE FROM conversations WHERE user_id NOT IN (SELECT id FROM users);
ALTER TABLE conversations ADD CONSTRAINT fk_conversations_user FOREIGN KEY (user_id) REFERENCES users (id)
    ON DELETE CASCADE;
