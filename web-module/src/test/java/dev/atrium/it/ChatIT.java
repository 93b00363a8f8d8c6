package dev.atrium.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

/** Spec 02's chat: completions, streaming, resume, conversations, quotas and the limit on model calls. */
@ExtendWith(AtriumServer.class)
class ChatIT {

    @BeforeEach
    void onlyWithServices() {
        assumeFalse(AtriumServer.get().embedded());
    }

    private static JsonNode complete(Accounts.Account user, Object body) {
        var reply = user.api().post("/api/chat/completions", body);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json();
    }

    @Test
    void whenChattingWithoutAConversationThenOneIsCreatedAndBothMessagesStored() {
        var user = Accounts.verified("chat");
        var answer = complete(user, Map.of("message", "hello there"));
        assertThat(answer.get("content").asText()).isEqualTo("Echo: hello there");
        assertThat(answer.get("model").asText()).isEqualTo("echo");
        assertThat(answer.at("/usage/output_tokens").asInt()).isPositive();
        assertThat(answer.at("/usage/total_tokens").asInt()).isEqualTo(answer.at("/usage/input_tokens").asInt()
                + answer.at("/usage/output_tokens").asInt());
        assertThat(answer.get("created_at").asText()).endsWith("Z");
        String conversation = answer.get("conversation_id").asText();

        var again = complete(user, Map.of("message", "second", "conversation_id", conversation));
        assertThat(again.get("conversation_id").asText()).isEqualTo(conversation);

        var conversations = user.api().get("/api/conversations").json();
        assertThat(conversations.get("total").asLong()).isEqualTo(1);
        assertThat(conversations.get("items").get(0).get("title").asText()).isEqualTo("New conversation");
        var messages = user.api().get("/api/conversations/" + conversation + "/messages?sort=created_at").json();
        assertThat(messages.get("items")).extracting(m -> m.get("role").asText())
                .containsExactly("user", "assistant", "user", "assistant");
        assertThat(messages.get("items").get(1).get("token_count").asInt()).isPositive();
        assertThat(messages.get("items").get(1).get("cost").isNumber()).isTrue();
        assertThat(messages.get("items").get(1).get("id").asText()).isEqualTo(answer.get("message_id").asText());
    }

    @Test
    void whenTheConversationBelongsToSomeoneElseThen404() {
        var owner = Accounts.verified("owner");
        String conversation = complete(owner, Map.of("message", "mine")).get("conversation_id").asText();
        var other = Accounts.verified("other");
        assertThat(other.api().post("/api/chat/completions", Map.of("message", "x", "conversation_id", conversation))
                .status()).isEqualTo(404);
        var streamed = EventStream.post("/api/chat/stream", other.accessToken(),
                Map.of("message", "x", "conversation_id", conversation));
        assertThat(streamed.status()).as("a stream is refused before the model is called").isEqualTo(404);
        assertThat(streamed.errorBody()).contains("40400");
        assertThat(other.api().get("/api/conversations/" + conversation + "/messages").status()).isEqualTo(404);
        assertThat(other.api().delete("/api/conversations/" + conversation).status()).isEqualTo(404);
        assertThat(owner.api().delete("/api/conversations/" + conversation).status()).isEqualTo(204);
        assertThat(owner.api().get("/api/conversations/" + conversation + "/messages").status()).isEqualTo(404);
        assertThat(EventStream.post("/api/chat/stream", owner.accessToken(),
                Map.of("message", "again", "conversation_id", conversation)).status()).isEqualTo(404);
    }

    @Test
    void whenTheRequestIsInvalidThen422With40001() {
        var user = Accounts.verified("invalidchat");
        for (Object body : List.of(Map.of("message", ""), Map.of("message", "x".repeat(10_001)), Map.of(),
                Map.of("message", "x", "conversation_id", "not-a-uuid"))) {
            var reply = user.api().post("/api/chat/completions", body);
            assertThat(reply.status()).as(body.toString().substring(0, Math.min(60, body.toString().length())))
                    .isEqualTo(422);
            assertThat(reply.code()).isEqualTo(40001);
        }
        assertThat(user.api().post("/api/chat/completions", Map.of("message", "x".repeat(10_000))).status())
                .isEqualTo(200);
        assertThat(Api.anonymous().post("/api/chat/completions", Map.of("message", "x")).status()).isEqualTo(401);
    }

    @Test
    void whenStreamingThenEventsArriveSpacedInTimeAndDoneComesAfterTheAnswerIsSaved() {
        var user = Accounts.verified("stream");
        String message = "one two three four five six seven eight nine ten";
        var result = EventStream.post("/api/chat/stream", user.accessToken(), Map.of("message", message));
        assertThat(result.status()).isEqualTo(200);
        assertThat(result.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        assertThat(result.headers().firstValue("Cache-Control").orElse("")).contains("no-cache");
        assertThat(result.headers().firstValue("X-Accel-Buffering").orElse("")).isEqualTo("no");

        var events = result.events();
        var content = events.stream().filter(e -> e.data().get("type").asText().equals("content")).toList();
        assertThat(content.size()).isGreaterThan(5);
        var done = events.get(events.size() - 1);
        assertThat(done.data().get("type").asText()).isEqualTo("done");
        String text = content.stream().map(e -> e.data().get("content").asText()).collect(Collectors.joining());
        assertThat(text).isEqualTo("Echo: " + message);
        long spreadMillis = (done.arrivedNanos() - content.get(0).arrivedNanos()) / 1_000_000;
        assertThat(spreadMillis).as("fragments are flushed as they are produced").isGreaterThan(200);

        String messageId = done.data().get("message_id").asText();
        String conversation = user.api().get("/api/conversations").json().get("items").get(0).get("id").asText();
        var saved = user.api().get("/api/conversations/" + conversation + "/messages?role=assistant").json();
        assertThat(saved.get("items").get(0).get("id").asText()).isEqualTo(messageId);
        assertThat(saved.get("items").get(0).get("content").asText()).isEqualTo(text);
    }

    @Test
    void whenStreamingIntoAConversationThenTheModelSeesItAndTheTurnsAreStoredInOrder() {
        var user = Accounts.verified("streamturns");
        var first = EventStream.post("/api/chat/stream", user.accessToken(), Map.of("message", "first words"));
        assertThat(first.status()).isEqualTo(200);
        String conversation = user.api().get("/api/conversations").json().get("items").get(0).get("id").asText();

        var second = EventStream.post("/api/chat/stream", user.accessToken(),
                Map.of("message", "second words", "conversation_id", conversation));

        assertThat(second.status()).isEqualTo(200);
        var events = second.events();
        assertThat(events.get(0).data().get("message_id").asText())
                .isEqualTo(events.get(events.size() - 1).data().get("message_id").asText());
        var messages = user.api().get("/api/conversations/" + conversation + "/messages?sort=created_at").json()
                .get("items");
        assertThat(messages).extracting(m -> m.get("role").asText() + ": " + m.get("content").asText())
                .containsExactly("user: first words", "assistant: Echo: first words", "user: second words",
                        "assistant: Echo: second words");
        assertThat(messages.get(3).get("id").asText()).isEqualTo(events.get(0).data().get("message_id").asText());
    }

    @Test
    void whenResumingThenTheRestComesInTenCharacterChunksFromTheOffset() {
        var user = Accounts.verified("resume");
        var result = EventStream.post("/api/chat/stream", user.accessToken(),
                Map.of("message", "resume me from the middle please"));
        String messageId = result.events().get(result.events().size() - 1).data().get("message_id").asText();
        String full = "Echo: resume me from the middle please";

        var whole = EventStream.get("/api/chat/stream/resume/" + messageId, user.accessToken());
        assertThat(whole.status()).isEqualTo(200);
        var chunks = whole.events().subList(0, whole.events().size() - 1);
        assertThat(chunks).allMatch(e -> e.data().get("content").asText().length() <= 10);
        assertThat(chunks.get(1).data().get("offset").asInt()).isEqualTo(10);
        assertThat(chunks.stream().map(e -> e.data().get("content").asText()).collect(Collectors.joining()))
                .isEqualTo(full);
        assertThat(whole.events().get(whole.events().size() - 1).data().get("type").asText()).isEqualTo("done");

        var rest = EventStream.get("/api/chat/stream/resume/" + messageId + "?last_offset=15", user.accessToken());
        assertThat(rest.events().get(0).data().get("offset").asInt()).isEqualTo(15);
        assertThat(rest.events().stream().filter(e -> e.data().has("content"))
                .map(e -> e.data().get("content").asText()).collect(Collectors.joining())).isEqualTo(full.substring(15));

        var other = Accounts.verified("notmine");
        assertThat(EventStream.get("/api/chat/stream/resume/" + messageId, other.accessToken()).status()).isEqualTo(404);
        assertThat(EventStream.get("/api/chat/stream/resume/00000000-0000-4000-8000-000000000000", user.accessToken())
                .status()).isEqualTo(404);
        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofSeconds(3601));
            var later = Accounts.login(Api.anonymous(), user.email(), user.username());
            assertThat(EventStream.get("/api/chat/stream/resume/" + messageId, later.accessToken()).status())
                    .as("the cache expired").isEqualTo(404);
        }
    }

    @Test
    void whenTheClientDropsAfterThreeEventsThenResumingGivesTheWholeAnswerExactlyOnce() {
        var user = Accounts.verified("dropper");
        String message = String.join(" ", java.util.Collections.nCopies(40, "word"));
        String full = "Echo: " + message;
        var seen = new java.util.concurrent.atomic.AtomicInteger();
        var first = EventStream.postUntil("/api/chat/stream", user.accessToken(), Map.of("message", message),
                e -> seen.incrementAndGet() == 3);
        assertThat(first.events()).hasSize(3);
        assertThat(first.events()).allMatch(e -> e.data().get("type").asText().equals("content"));
        assertThat(first.events().get(0).data().has("message_id")).as("message_id comes in the first event").isTrue();
        String messageId = first.events().get(0).data().get("message_id").asText();
        String received = first.events().stream().map(e -> e.data().get("content").asText())
                .collect(Collectors.joining());

        var rest = EventStream.get("/api/chat/stream/resume/" + messageId + "?last_offset=" + received.length(),
                user.accessToken());
        assertThat(rest.status()).isEqualTo(200);
        var chunks = rest.events().subList(0, rest.events().size() - 1);
        assertThat(rest.events().get(rest.events().size() - 1).data().get("type").asText()).isEqualTo("done");
        assertThat(chunks.get(0).data().get("offset").asInt()).isEqualTo(received.length());
        assertThat(chunks).allMatch(e -> e.data().get("content").asText().length() <= 10);
        assertThat(received + chunks.stream().map(e -> e.data().get("content").asText())
                .collect(Collectors.joining())).as("the whole answer, each part once").isEqualTo(full);
        long followed = (rest.events().get(rest.events().size() - 1).arrivedNanos()
                - chunks.get(0).arrivedNanos()) / 1_000_000;
        assertThat(followed).as("the resume followed the answer while it was generated (40 words, 40 ms apart)")
                .isGreaterThan(300);

        String conversation = user.api().get("/api/conversations").json().get("items").get(0).get("id").asText();
        var saved = user.api().get("/api/conversations/" + conversation + "/messages?role=assistant").json()
                .get("items").get(0);
        assertThat(saved.get("id").asText()).isEqualTo(messageId);
        assertThat(saved.get("content").asText()).as("the model went on after the client left").isEqualTo(full);
        assertThat(saved.at("/metadata/interrupted").asBoolean()).isFalse();
    }

    @Test
    void whenStreamingFailsTheQuotaOrValidationThenAJsonErrorInsteadOfAStream() {
        var user = Accounts.verified("streamerr");
        var invalid = EventStream.post("/api/chat/stream", user.accessToken(), Map.of("message", ""));
        assertThat(invalid.status()).isEqualTo(422);
        assertThat(invalid.errorBody()).contains("40001");
        var forbidden = EventStream.post("/api/chat/stream", user.accessToken(),
                Map.of("message", "x", "model", "echo-pro"));
        assertThat(forbidden.status()).isEqualTo(403);
    }

    @Test
    void whenTheModelIsUnknownOrNotInTheTierThen403BeforeTheBodyIsValidatedOnEveryChatEndpoint() {
        var user = Accounts.verified("tierfirst");
        var bodies = List.<Map<String, Object>>of(Map.of("message", "x", "model", "gpt-9"),
                Map.of("message", "", "model", "gpt-9"), Map.of("message", "x".repeat(10_001), "model", "echo-pro"),
                Map.of("message", "x", "model", "echo-pro", "conversation_id", "not-a-uuid"),
                Map.of("model", "m".repeat(500)));
        for (String path : List.of("/api/chat/completions", "/api/chat/smart-stream")) {
            for (var body : bodies) {
                var reply = user.api().post(path, body);
                assertThat(reply.status()).as(path + " " + reply).isEqualTo(403);
                assertThat(reply.code()).isEqualTo(40300);
                assertThat(reply.json().at("/error/message").asText()).contains("free").contains("echo")
                        .doesNotContain("mmmmm");
            }
        }
        for (var body : bodies) {
            var streamed = EventStream.post("/api/chat/stream", user.accessToken(), body);
            assertThat(streamed.status()).as("stream " + body.keySet()).isEqualTo(403);
            assertThat(streamed.errorBody()).contains("40300");
        }
    }

    @Test
    void whenTheRequestIsDeterministicThenTheSecondIdenticalPromptIsAnsweredFromTheResponseCache() {
        var user = Accounts.verified("cached");
        String prompt = "cache me " + java.util.UUID.randomUUID();
        String model = TestModelServer.SCRIPTED;
        var first = complete(user, Map.of("message", prompt, "model", model, "temperature", 0));
        var second = complete(user, Map.of("message", prompt, "model", model, "temperature", 0));
        assertThat(second.get("content").asText()).isEqualTo(first.get("content").asText());
        assertThat(second.at("/usage/output_tokens").asInt()).isEqualTo(first.at("/usage/output_tokens").asInt());
        assertThat(TestModelServer.calls(prompt)).as("the second answer came from the cache").isEqualTo(1);

        complete(user, Map.of("message", prompt, "model", model, "temperature", 0.7));
        complete(user, Map.of("message", prompt, "model", model));
        assertThat(TestModelServer.calls(prompt)).as("sampled requests always reach the model").isEqualTo(3);

        complete(user, Map.of("message", prompt, "model", model, "temperature", 0, "conversation_id",
                first.get("conversation_id").asText()));
        assertThat(TestModelServer.calls(prompt)).as("another history is another prompt").isEqualTo(4);
        assertThat(user.api().post("/api/chat/completions", Map.of("message", "x", "temperature", 3)).status())
                .isEqualTo(422);
    }

    @Test
    void whenChattingThenTheConversationsMessagesAreCachedForAnHour() {
        var user = Accounts.verified("convcache");
        var answer = complete(user, Map.of("message", "keep this in the cache"));
        String conversation = answer.get("conversation_id").asText();
        try (var redis = new redis.clients.jedis.Jedis(java.net.URI.create(AtriumServer.Services.redisUrl()))) {
            String key = "conversation:" + conversation + ":messages";
            var cached = Api.JSON.readTree(redis.get(key));
            assertThat(cached).extracting(m -> m.get("role").asText()).containsExactly("user", "assistant");
            assertThat(cached.get(1).get("content").asText()).isEqualTo("Echo: keep this in the cache");
            assertThat(redis.ttl(key)).isBetween(3000L, 3600L);

            complete(user, Map.of("message", "and this", "conversation_id", conversation));
            assertThat(Api.JSON.readTree(redis.get(key))).extracting(m -> m.get("content").asText())
                    .containsExactly("keep this in the cache", "Echo: keep this in the cache", "and this",
                            "Echo: and this");
            assertThat(user.api().delete("/api/conversations/" + conversation).status()).isEqualTo(204);
            assertThat(redis.exists(key)).as("dropped with the conversation").isFalse();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void whenALanguageModelIsConfiguredThenHealthSaysSo() {
        assertThat(Api.anonymous().get("/health").json().get("models").asText()).isEqualTo("configured");
    }

    @Test
    void whenTheModelIsNotInTheTierThen403UntilTheTierAllowsIt() {
        var user = Accounts.verified("tier");
        var refused = user.api().post("/api/chat/completions", Map.of("message", "x", "model", "echo-pro"));
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.json().at("/error/message").asText()).contains("free");
        var admin = Accounts.admin();
        var changed = admin.api().patch("/api/admin/users/" + user.id(), Map.of("tier", "pro"));
        assertThat(changed.status()).as(changed.toString()).isEqualTo(200);
        assertThat(changed.json().get("tier").asText()).isEqualTo("pro");
        assertThat(user.api().post("/api/chat/completions", Map.of("message", "x", "model", "echo-pro")).status())
                .isEqualTo(200);
        assertThat(admin.api().patch("/api/admin/users/" + user.id(), Map.of("tier", "gold")).status()).isEqualTo(422);
    }

    @Test
    void whenTheDailyRequestsAreUsedUpThen429WithRateLimitHeadersUntilMidnight() {
        var user = Accounts.verified("quota");
        for (int i = 0; i < 100; i++) {
            assertThat(user.api().post("/api/chat/completions", Map.of("message", "q")).status()).as("request " + i)
                    .isEqualTo(200);
        }
        var refused = user.api().post("/api/chat/completions", Map.of("message", "q"));
        assertThat(refused.status()).isEqualTo(429);
        assertThat(refused.code()).isEqualTo(42900);
        assertThat(refused.header("X-RateLimit-Limit")).isEqualTo("100");
        assertThat(refused.header("X-RateLimit-Remaining")).isEqualTo("0");
        long reset = Long.parseLong(refused.header("X-RateLimit-Reset"));
        assertThat(reset % 86400).as("midnight UTC").isZero();
        var usage = Accounts.admin().api().get("/api/admin/users?email=" + user.email()).json().get("items").get(0);
        assertThat(usage.at("/usage_today/requests").asLong()).isEqualTo(100);
        assertThat(usage.get("tier").asText()).isEqualTo("free");
        try (var clock = ServerClock.borrowed()) {
            clock.advance(Duration.ofSeconds(reset - java.time.Instant.now().getEpochSecond() + 1));
            var tomorrow = Accounts.login(Api.anonymous(), user.email(), user.username());
            assertThat(tomorrow.api().post("/api/chat/completions", Map.of("message", "q")).status()).isEqualTo(200);
        }
    }

    @Test
    void whenTheDailyTokensAreUsedUpThenTheNextRequestIsRefused() {
        var user = Accounts.verified("tokens");
        String big = "x".repeat(10_000);
        int requests = 0;
        Reply reply;
        do {
            reply = user.api().post("/api/chat/completions", Map.of("message", big));
            requests++;
        } while (reply.status() == 200 && requests < 60);
        assertThat(reply.status()).isEqualTo(429);
        assertThat(reply.json().at("/error/message").asText()).contains("token");
        assertThat(requests).as("about 5000 tokens a request against 100000 a day").isBetween(20, 22);
    }

    @Test
    void whenMoreModelCallsThanSlotsThenTheExtraOnesGet503() throws Exception {
        var user = Accounts.verified("busy");
        Accounts.admin().api().patch("/api/admin/users/" + user.id(), Map.of("tier", "enterprise"));
        String slow = String.join(" ", java.util.Collections.nCopies(60, "slow"));
        var streams = new ArrayList<CompletableFuture<EventStream.Result>>();
        for (int i = 0; i < 10; i++) {
            streams.add(CompletableFuture.supplyAsync(() -> EventStream.post("/api/chat/stream", user.accessToken(),
                    Map.of("message", slow))));
        }
        Thread.sleep(1000);
        var extra = user.api().post("/api/chat/completions", Map.of("message", "one more"));
        assertThat(extra.status()).isEqualTo(503);
        assertThat(extra.code()).isEqualTo(50300);
        for (var stream : streams) {
            assertThat(stream.get().events().get(stream.get().events().size() - 1).data().get("type").asText())
                    .isEqualTo("done");
        }
        assertThat(user.api().post("/api/chat/completions", Map.of("message", "after")).status()).isEqualTo(200);
    }

    @Test
    void whenNotAnAdministratorThenTheAiAdminListIsForbidden() {
        var user = Accounts.verified("notadmin");
        var reply = user.api().get("/api/admin/users");
        assertThat(reply.status()).isEqualTo(403);
        assertThat(reply.json().at("/error/message").asText()).contains("admin");
    }

    @Test
    void whenCompletionsAsksStreamTrueThenItStreamsAsTheStreamEndpointDoesAndFalseOrAbsentAnswersJson() {
        var user = Accounts.verified("completionstream");
        String message = "one two three four five six seven";
        var result = EventStream.post("/api/chat/completions", user.accessToken(),
                Map.of("message", message, "stream", true));
        assertThat(result.status()).as(String.valueOf(result.errorBody())).isEqualTo(200);
        assertThat(result.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        var events = result.events();
        var content = events.stream().filter(e -> e.data().get("type").asText().equals("content")).toList();
        assertThat(content).isNotEmpty();
        assertThat(content.get(0).data().has("message_id")).as("the first fragment names the message").isTrue();
        var done = events.get(events.size() - 1);
        assertThat(done.data().get("type").asText()).isEqualTo("done");
        assertThat(content.stream().map(e -> e.data().get("content").asText()).collect(Collectors.joining()))
                .isEqualTo("Echo: " + message);
        String messageId = done.data().get("message_id").asText();
        String conversation = user.api().get("/api/conversations").json().get("items").get(0).get("id").asText();
        var saved = user.api().get("/api/conversations/" + conversation + "/messages?role=assistant").json();
        assertThat(saved.get("items").get(0).get("id").asText()).isEqualTo(messageId);

        var plain = user.api().post("/api/chat/completions", Map.of("message", "whole", "stream", false));
        assertThat(plain.status()).as(plain.toString()).isEqualTo(200);
        assertThat(plain.json().get("content").asText()).isEqualTo("Echo: whole");
        assertThat(complete(user, Map.of("message", "absent")).get("content").asText()).isEqualTo("Echo: absent");
        var nullStream = new java.util.HashMap<String, Object>(Map.of("message", "null stream"));
        nullStream.put("stream", null);
        assertThat(complete(user, nullStream).get("content").asText()).isEqualTo("Echo: null stream");
    }

    @Test
    void whenStreamIsNotABooleanThen422NamingItAndNoStream() {
        var user = Accounts.verified("streamhostile");
        var failures = new ArrayList<String>();
        for (String stream : List.of("\"maybe\"", "\"true\"", "2", "1", "0", "[true]", "{\"on\":true}", "1e999",
                "\"\"")) {
            String body = "{\"message\":\"hi\",\"stream\":" + stream + "}";
            for (String path : List.of("/api/chat/completions", "/api/chat/stream")) {
                var reply = user.api().send("POST", path, body, "application/json");
                if (reply.status() != 422 || reply.code() != 40001 || !reply.body().contains("stream")) {
                    failures.add(path + " " + stream + " -> " + reply.status() + " " + reply.body());
                }
            }
        }
        assertThat(failures).isEmpty();
        var malformed = user.api().send("POST", "/api/chat/completions", "{\"message\":\"hi\",\"stream\":tru}",
                "application/json");
        assertThat(malformed.status()).as("not JSON at all: " + malformed).isEqualTo(400);
        assertThat(malformed.code()).isEqualTo(40000);
    }

    @Test
    void whenSmartStreamingAShortMessageThenItStreams() {
        var user = Accounts.verified("smartshort");
        var result = EventStream.post("/api/chat/smart-stream", user.accessToken(),
                Map.of("message", "one two three four five six"));
        assertThat(result.status()).isEqualTo(200);
        assertThat(result.headers().firstValue("Content-Type").orElse("")).startsWith("text/event-stream");
        var content = result.events().stream().filter(e -> e.data().get("type").asText().equals("content")).toList();
        var done = result.events().get(result.events().size() - 1);
        assertThat(done.data().get("type").asText()).isEqualTo("done");
        assertThat(content.size()).isGreaterThan(3);
        assertThat((done.arrivedNanos() - content.get(0).arrivedNanos()) / 1_000_000)
                .as("flushed as produced").isGreaterThan(100);
    }

    @Test
    void whenSmartStreamGoesAsyncInAConversationThenTheModelSeesTheHistoryAndTheAnswerJoinsIt() {
        var user = Accounts.verified("smartconv");
        String model = TestModelServer.SCRIPTED;
        var first = complete(user, Map.of("message", "remember the number 42", "model", model));
        String conversation = first.get("conversation_id").asText();
        String longMessage = "recall " + java.util.UUID.randomUUID() + " " + "word ".repeat(600);
        var reply = user.api().post("/api/chat/smart-stream", Map.of("message", longMessage, "model", model,
                "conversation_id", conversation));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        assertThat(reply.json().get("conversation_id").asText()).isEqualTo(conversation);
        String task = reply.json().get("task_id").asText();
        JsonNode finished = null;
        for (int i = 0; i < 100 && finished == null; i++) {
            var status = user.api().get("/api/tasks/" + task).json();
            if (status.get("status").asText().equals("success") || status.get("status").asText().equals("failure")) {
                finished = status;
            } else {
                Accounts.sleep(200);
            }
        }
        assertThat(finished).as("the task finished").isNotNull();
        assertThat(finished.get("status").asText()).as(finished.toString()).isEqualTo("success");
        assertThat(TestModelServer.messagesSeen(longMessage)).as("the earlier question, its answer, the new one")
                .isEqualTo(3);
        var messages = user.api().get("/api/conversations/" + conversation + "/messages?sort=created_at").json()
                .get("items");
        assertThat(messages).extracting(m -> m.get("role").asText())
                .containsExactly("user", "assistant", "user", "assistant");
        assertThat(messages.get(2).get("content").asText()).isEqualTo(longMessage);
        assertThat(messages.get(3).get("content").asText()).isEqualTo(finished.at("/result/content").asText());
        assertThat(messages.get(3).get("id").asText()).isEqualTo(reply.json().get("message_id").asText());
    }

    @Test
    void whenSmartStreamingALongMessageThenATaskIsSubmittedWithTheEstimate() {
        var user = Accounts.verified("smartlong");
        var reply = user.api().post("/api/chat/smart-stream", Map.of("message", "word ".repeat(1900)));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        assertThat(reply.json().get("mode").asText()).isEqualTo("async");
        assertThat(reply.json().get("estimated_time").asDouble()).isGreaterThanOrEqualTo(30);
        String task = reply.json().get("task_id").asText();
        assertThat(reply.header("Location")).isEqualTo("/api/tasks/" + task);
        assertThat(user.api().get("/api/tasks/" + task).status()).isEqualTo(200);
        // let the task end (at the test server's soft limit), so its model call does not hold a slot of other tests
        for (int i = 0; i < 100; i++) {
            String status = user.api().get("/api/tasks/" + task).json().get("status").asText();
            if (status.equals("success") || status.equals("failure")) {
                return;
            }
            Accounts.sleep(200);
        }
        throw new AssertionError("the task did not end");
    }

    @Test
    void whenARequestTakesLongerThanFiveSecondsThenItIsLoggedWithItsId() throws Exception {
        var user = Accounts.verified("slow");
        var result = EventStream.post("/api/chat/stream", user.accessToken(),
                Map.of("message", String.join(" ", java.util.Collections.nCopies(140, "slow"))));
        String id = result.headers().firstValue("X-Request-ID").orElseThrow();
        var log = java.nio.file.Path.of(System.getProperty("atrium.it.work", "target/it")).resolve("services-server.log");
        boolean logged = false;
        for (int i = 0; i < 20 && !logged; i++) {
            logged = java.nio.file.Files.readString(log).contains("Slow request " + id);
            Thread.sleep(250);
        }
        assertThat(logged).as("slow request " + id + " in the log").isTrue();
    }
}
