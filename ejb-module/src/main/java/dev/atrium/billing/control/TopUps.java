package dev.atrium.billing.control;

import java.math.BigDecimal;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;

import jakarta.ejb.EJB;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;

import dev.atrium.billing.entity.AccountKind;
import dev.atrium.billing.entity.BillingAccount;
import dev.atrium.billing.entity.EntryKind;
import dev.atrium.billing.entity.Money;
import dev.atrium.billing.entity.TopUp;
import dev.atrium.platform.error.BusinessException;
import dev.atrium.platform.error.Problem;

/**
 * Top-ups through the configured payment processor ({@link PaymentsSetting}, see {@link PaymentProcessor}):
 * {@code embedded}, for development only, confirms every top-up at once, so no money is ever received; {@code webhook}
 * and {@code stripe} leave the top-up pending until the processor's signed callback confirms it. A top-up is credited
 * exactly once however often its confirmation arrives (entry {@code top-up:<id>}), and only by its own processor
 * with the amount and currency it was opened for.
 */
@Stateless
public class TopUps {

    public static final String EMBEDDED = "embedded";
    public static final String WEBHOOK = "webhook";
    private static final Logger LOG = Logger.getLogger(TopUps.class.getName());

    @PersistenceContext(unitName = "atrium")
    EntityManager em;

    @EJB
    Ledger ledger;

    @Inject
    Clock clock;

    @Inject
    @Any
    Instance<PaymentProcessor> processors;

    @EJB
    PaymentsSetting payments;

    /** A new top-up and, for a processor the payer completes the payment with, the secret to do it with. */
    public record Created(TopUp topUp, String clientSecret) {
    }

    public Created create(long userId, BigDecimal amount) {
        String processor = payments.processor();
        var with = processor(processor).orElseThrow(() -> new BusinessException(Problem.UNAVAILABLE,
                "No payment processor", PaymentsSetting.ENV + " is " + processor));
        var topUp = new TopUp(userId, amount, with.name(), clock.instant());
        var payment = with.open(topUp);
        topUp.sentTo(payment.externalId());
        em.persist(topUp);
        if (payment.confirmed()) {
            credit(topUp);
        }
        return new Created(topUp, payment.clientSecret());
    }

    public TopUp mine(long userId, UUID id) {
        TopUp topUp = em.find(TopUp.class, id);
        if (topUp == null || topUp.userId() != userId) {
            throw BusinessException.notFound("Top-up");
        }
        return topUp;
    }

    /** The header {@code processor}'s callbacks are signed in; 404 for a processor unknown. */
    public String signatureHeader(String processor) {
        return processor(processor).orElseThrow(() -> BusinessException.notFound("Payment processor"))
                .signatureHeader();
    }

    /**
     * A processor's signed callback (see {@link PaymentProcessor#read}): a success credits its top-up once, a
     * cancellation fails a pending one; 404 for an unknown top-up, 422 when the event names another processor's
     * top-up, another payment, or another amount or currency (nothing is credited, and it is logged). Answers whether
     * this call credited the balance.
     */
    public boolean webhook(String processor, byte[] body, String signature) {
        var from = processor(processor).orElseThrow(() -> BusinessException.notFound("Payment processor"));
        return apply(from, from.read(body, signature, clock.instant()));
    }

    /** A verified event of processor {@code from} (see {@link #webhook}); empty concerns no top-up. */
    public boolean apply(PaymentProcessor from, Optional<PaymentProcessor.Event> read) {
        if (read.isEmpty()) {
            return false;
        }
        var event = read.get();
        TopUp topUp = em.find(TopUp.class, event.topUpId(), LockModeType.PESSIMISTIC_WRITE);
        if (topUp == null) {
            throw BusinessException.notFound("Top-up");
        }
        String mismatch = mismatch(topUp, from.name(), event);
        if (mismatch != null) {
            LOG.warning(() -> "A " + from.name() + " callback for top-up " + topUp.id() + " was refused: " + mismatch);
            throw BusinessException.validation("The event does not match the top-up: " + mismatch);
        }
        if (event.outcome() == PaymentProcessor.Outcome.FAILED) {
            if (topUp.fail()) {
                LOG.info(() -> "Top-up " + topUp.id() + " failed at " + from.name());
            }
            return false;
        }
        return credit(topUp);
    }

    /** Why an event cannot be about the top-up, or null when it can. */
    static String mismatch(TopUp topUp, String processor, PaymentProcessor.Event event) {
        if (!topUp.processor().equals(processor)) {
            return "the top-up was opened with " + topUp.processor();
        }
        if (event.externalId() != null && !event.externalId().equals(topUp.externalId())) {
            return "another payment";
        }
        if (event.currency() != null && !event.currency().equals(Money.CURRENCY)) {
            return "currency " + event.currency();
        }
        if (event.amount() != null && event.amount().compareTo(topUp.amount()) != 0) {
            return "amount " + event.amount().toPlainString();
        }
        return null;
    }

    private Optional<PaymentProcessor> processor(String name) {
        return processors.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    private boolean credit(TopUp topUp) {
        if (!topUp.confirm(clock.instant())) {
            return false;
        }
        ledger.post(EntryKind.TOP_UP, "top-up:" + topUp.id(), topUp.userId(), "Top-up via " + topUp.processor(),
                List.of(new Ledger.Line(AccountKind.EXTERNAL_PAYMENTS, BillingAccount.PLATFORM,
                                topUp.amount().negate()),
                        new Ledger.Line(AccountKind.USER_BALANCE, topUp.userId(), topUp.amount())));
        LOG.info(() -> "Top-up " + topUp.id() + " of user " + topUp.userId() + " credited");
        return true;
    }
}
