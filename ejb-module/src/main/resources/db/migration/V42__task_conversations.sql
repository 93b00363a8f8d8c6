-- A task submitted by smart-stream continues a conversation: the model sees its history up to the user's message
-- (user_message_id), and the answer is stored in it as the assistant's message answer_message_id. Null for tasks
-- submitted through /api/tasks/submit. No foreign key: a conversation deleted meanwhile just gets no answer. Text,
-- not UUID: the JPA provider's UUID mapping cannot read a null.
ALTER TABLE tasks ADD COLUMN conversation_id VARCHAR(36);
ALTER TABLE tasks ADD COLUMN user_message_id VARCHAR(36);
ALTER TABLE tasks ADD COLUMN answer_message_id VARCHAR(36);
