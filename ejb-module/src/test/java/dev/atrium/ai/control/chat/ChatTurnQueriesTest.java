package dev.atrium.ai.control.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

import jakarta.persistence.EntityManager;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.ai.control.QuotaService;
import dev.atrium.ai.control.Quotas;
import dev.atrium.ai.control.models.ChatTurn;
import dev.atrium.ai.control.models.ModelDefinition;
import dev.atrium.ai.control.models.OneModelCatalog;
import dev.atrium.ai.entity.Conversation;
import dev.atrium.ai.entity.Message;
import dev.atrium.ai.entity.Tenant;
import dev.atrium.ai.entity.Tier;
import dev.atrium.identity.entity.EmailAddress;
import dev.atrium.identity.entity.Role;
import dev.atrium.identity.entity.User;
import dev.atrium.platform.config.ConfigDefaults;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;
import dev.atrium.platform.kv.InMemoryKeyValueStore;
import dev.atrium.platform.persistence.StatementCounter;

/**
 * The statements of a chat turn's start, counted at the JDBC driver with the services wired as the container wires
 * them (store in memory, database real): the tier is read once per request (the model check reads it and hands it to
 * the quota check), from the database only the first time (then kept under its version in the store), and a new
 * conversation asks nobody for its history (neither the cache nor the database); only the conversation and the
 * message are written.
 */
class ChatTurnQueriesTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-26T10:00:00Z"), ZoneOffset.UTC);
    private static final ModelDefinition MODEL = new ModelDefinition("echo", "echo", "echo", BigDecimal.ZERO,
            BigDecimal.ZERO, Set.of(Tier.FREE, Tier.PRO, Tier.ENTERPRISE), 50, 0.1);

    private static StatementCounter counter;
    private static long user;

    private final List<UUID> historyReads = new ArrayList<>();
    private EntityManager em;
    private QuotaService quotas;
    private ConversationStore conversations;

    @BeforeAll
    static void seed() {
        counter = StatementCounter.database("chat-turns");
        user = counter.inTransaction(em -> {
            Role role = em.createQuery("select r from Role r where r.name = 'user'", Role.class).getSingleResult();
            var ada = User.external(EmailAddress.of("ada@example.org"), "ada", role, CLOCK.instant());
            em.persist(ada);
            em.flush();
            em.persist(new Tenant(ada.id(), Tier.PRO, CLOCK.instant()));
            return ada.id();
        });
    }

    @AfterAll
    static void close() {
        counter.close();
    }

    @BeforeEach
    void wire() {
        em = counter.entityManagers().createEntityManager();
        var store = new InMemoryKeyValueStore(CLOCK);
        var tiers = ConfigDefaults.of(AiConfig.class);
        tiers.tierCacheSeconds = 30;
        quotas = Quotas.service(em, store, CLOCK, tiers, new OneModelCatalog(MODEL));
        var cache = new ConversationCache() {
            @Override
            public Optional<List<ChatTurn>> get(UUID conversationId) {
                historyReads.add(conversationId);
                return super.get(conversationId);
            }
        };
        cache.store = store;
        cache.config = ConfigDefaults.of(AiConfig.class);
        cache.config.conversationCacheSeconds = 3600;
        cache.transactions = new NoTransactions();
        conversations = new ConversationStore();
        conversations.em = em;
        conversations.clock = CLOCK;
        conversations.cache = cache;
    }

    private <T> T request(Supplier<T> work) {
        return counter.request(em, work);
    }

    @Test
    void whenAChatRequestIsAdmittedThenTheTierIsReadOnce() {
        var admission = request(() -> {
            Tier tier = quotas.allowed(user, "echo");
            return quotas.admit(user, tier, "echo");
        });

        assertThat(admission.tier()).isEqualTo(Tier.PRO);
        assertThat(counter.statements()).hasSize(1).allMatch(s -> s.toLowerCase().contains("from ai_tenants"));
    }

    @Test
    void whenTheSameUserChatsAgainThenTheTierIsNotReadFromTheDatabase() {
        request(() -> quotas.admit(user, quotas.allowed(user, "echo"), "echo"));

        var again = request(() -> quotas.admit(user, quotas.allowed(user, "echo"), "echo"));

        assertThat(again.tier()).isEqualTo(Tier.PRO);
        assertThat(counter.statements()).isEmpty();
    }

    @Test
    void whenANewConversationBeginsThenItsHistoryIsNotAskedForAndTwoRowsAreWritten() {
        var turn = request(() -> conversations.begin(user, null, MODEL, "hello"));

        assertThat(historyReads).isEmpty();
        assertThat(counter.statementsButSequences()).hasSize(2);
        assertThat(counter.statementsButSequences().get(0)).containsIgnoringCase("insert into conversations");
        assertThat(counter.statementsButSequences().get(1)).containsIgnoringCase("insert into messages");
        assertThat(turn.context()).extracting(ChatTurn::content).containsExactly("hello");
    }

    @Test
    void whenAConversationContinuesThenItsHistoryComesFromTheCache() {
        var first = request(() -> conversations.begin(user, null, MODEL, "hello"));

        var second = request(() -> conversations.begin(user, first.conversationId(), MODEL, "and then?"));

        assertThat(historyReads).containsExactly(first.conversationId());
        assertThat(counter.statements()).noneMatch(s -> s.toLowerCase().contains("from messages"));
        assertThat(second.context()).extracting(ChatTurn::content).containsExactly("hello", "and then?");
    }

    @Test
    void whenAStreamedTurnIsPreparedThenNothingIsWrittenUntilItIsStoredUnderTheIdsItNamed() {
        var turn = request(() -> conversations.prepare(user, null, "hello"));

        assertThat(counter.statementsButSequences()).isEmpty();
        assertThat(historyReads).isEmpty();
        assertThat(turn.newConversation()).isTrue();
        assertThat(turn.context()).extracting(ChatTurn::content).containsExactly("hello");

        request(() -> {
            conversations.store(user, turn, MODEL);
            return null;
        });

        assertThat(counter.statementsButSequences()).hasSize(2);
        var stored = request(() -> em.find(Message.class, turn.userMessageId()));
        assertThat(stored.conversationId()).isEqualTo(turn.conversationId());
        assertThat(request(() -> em.find(Conversation.class, turn.conversationId()).ownedBy(user))).isTrue();
    }

    @Test
    void whenTheConversationIsDeletedBetweenPrepareAndStoreThenTheStoreIsNotFound() {
        var first = request(() -> conversations.begin(user, null, MODEL, "hello"));
        var next = request(() -> conversations.prepare(user, first.conversationId(), "and then?"));
        request(() -> em.createQuery("delete from Message m where m.conversationId = :c")
                .setParameter("c", first.conversationId()).executeUpdate()
                + em.createQuery("delete from Conversation c where c.id = :c")
                .setParameter("c", first.conversationId()).executeUpdate());

        assertThatThrownBy(() -> request(() -> {
            conversations.store(user, next, MODEL);
            return null;
        })).isInstanceOfSatisfying(BusinessException.class, e -> assertThat(e.problem()).isEqualTo(Problem.NOT_FOUND));
    }

    @Test
    void whenSomeoneElsesConversationIsPreparedThenItIsNotFoundBeforeAnyWrite() {
        var first = request(() -> conversations.begin(user, null, MODEL, "hello"));

        assertThatThrownBy(() -> request(() -> conversations.prepare(user + 1, first.conversationId(), "mine?")))
                .isInstanceOfSatisfying(BusinessException.class,
                        e -> assertThat(e.problem()).isEqualTo(Problem.NOT_FOUND));
        assertThat(counter.statementsButSequences()).noneMatch(s -> s.toLowerCase().startsWith("insert"));
    }

    /** Outside a container: no transaction, so what waits for a commit is done at once. */
    private static final class NoTransactions implements TransactionSynchronizationRegistry {
        @Override
        public Object getTransactionKey() {
            return null;
        }

        @Override
        public void putResource(Object key, Object value) {
        }

        @Override
        public Object getResource(Object key) {
            return null;
        }

        @Override
        public void registerInterposedSynchronization(Synchronization sync) {
            throw new IllegalStateException("no transaction");
        }

        @Override
        public int getTransactionStatus() {
            return Status.STATUS_NO_TRANSACTION;
        }

        @Override
        public void setRollbackOnly() {
        }

        @Override
        public boolean getRollbackOnly() {
            return false;
        }
    }
}
