package dev.atrium.platform.mail;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/** {@link MailService}'s delivery side over a map, for the handler without a container or database. */
class InMemoryMailService extends MailService {

    private final Map<UUID, OutgoingMail> mails = new ConcurrentHashMap<>();

    InMemoryMailService(Clock clock) {
        this.clock = clock;
    }

    OutgoingMail add(String to, String subject, String text) {
        var mail = new OutgoingMail(to, subject, text, clock.instant());
        mails.put(mail.id(), mail);
        return mail;
    }

    /** Reads a mail that a consumer thread may be changing. */
    synchronized <T> T inspect(UUID id, Function<OutgoingMail, T> view) {
        return view.apply(mails.get(id));
    }

    @Override
    public synchronized Optional<OutgoingMail> find(UUID id) {
        return Optional.ofNullable(mails.get(id));
    }

    @Override
    public synchronized void markSent(UUID id) {
        mails.get(id).markSent(clock.instant());
    }

    @Override
    public synchronized void recordFailure(UUID id, String error, boolean lastAttempt) {
        mails.get(id).recordFailure(error, lastAttempt);
    }
}
