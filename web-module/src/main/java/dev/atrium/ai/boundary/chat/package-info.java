/**
 * Chat: the completion endpoint with its streamed answers (server-sent events, their resumption, the WebSocket
 * behind its handshake gate, the threads they run on), and the caller's conversation history.
 */
package dev.atrium.ai.boundary.chat;
