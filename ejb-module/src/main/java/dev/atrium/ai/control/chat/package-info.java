/**
 * Chat: a turn from quota to stored answer ({@code ChatService}), whole or streamed, the conversations and messages it
 * writes ({@code ConversationStore}) and their history ({@code ConversationService}), and the shared store's caches of
 * history, deterministic answers and streamed answers for resuming.
 */
package dev.atrium.ai.control.chat;
