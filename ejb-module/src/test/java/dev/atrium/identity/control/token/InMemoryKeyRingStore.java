package dev.atrium.identity.control.token;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import dev.atrium.identity.entity.SigningKey;

/** The key ring's table as a list, for tests without a database. */
public class InMemoryKeyRingStore extends KeyRingStore {

    final List<SigningKey> keys = new ArrayList<>();

    @Override
    public synchronized List<SigningKey> all() {
        return keys.stream().sorted(Comparator.comparing(SigningKey::createdAt)).toList();
    }

    @Override
    public synchronized void ensureCurrent(String algorithm, Supplier<SigningKey> create) {
        if (current(algorithm).isEmpty()) {
            keys.add(create.get());
        }
    }

    @Override
    public synchronized Optional<SigningKey> rotate(String algorithm, Supplier<SigningKey> create,
                                                    Duration keepPrevious, Instant olderThan, Instant now) {
        var current = current(algorithm);
        if (olderThan != null && current.isPresent() && current.get().createdAt().isAfter(olderThan)) {
            return Optional.empty();
        }
        current.ifPresent(k -> k.retire(now, now.plus(keepPrevious)));
        SigningKey fresh = create.get();
        keys.add(fresh);
        dropExpired(now);
        return Optional.of(fresh);
    }

    @Override
    public synchronized int dropExpired(Instant now) {
        int before = keys.size();
        keys.removeIf(k -> k.droppable(now));
        return before - keys.size();
    }

    @Override
    public synchronized void delete(Collection<String> kids) {
        keys.removeIf(k -> kids.contains(k.kid()));
    }

    private Optional<SigningKey> current(String algorithm) {
        return keys.stream().filter(k -> k.algorithm().equals(algorithm) && k.isCurrent()).findFirst();
    }
}
