package dev.atrium.platform.kv;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * The production store: Redis through a pool of Jedis connections, shared by every instance of the application.
 * Each operation is one Redis command or one Lua script, so each is atomic across instances.
 */
public final class RedisKeyValueStore implements KeyValueStore, AutoCloseable {

    /** The spec's limit: "cache pool 50 connections". */
    static final int MAX_CONNECTIONS = 50;
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    static final Duration READ_TIMEOUT = Duration.ofSeconds(2);
    static final Duration BORROW_TIMEOUT = Duration.ofSeconds(2);

    private static final Logger LOG = Logger.getLogger(RedisKeyValueStore.class.getName());

    // checking existence rather than "INCR answered 1" keeps a counter that was set to "0" from restarting its window
    static final Script INCREMENT = new Script("""
            local created = redis.call('EXISTS', KEYS[1]) == 0
            local value = redis.call('INCRBY', KEYS[1], ARGV[2])
            if created and tonumber(ARGV[1]) > 0 then
              redis.call('PEXPIRE', KEYS[1], ARGV[1])
            end
            return value
            """);

    // the episode's key set when absent (answer 0), else the repeat counted as INCREMENT counts and the stamp set
    static final Script BEGIN_OR_REPEAT = new Script("""
            local begun
            if tonumber(ARGV[1]) > 0 then
              begun = redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1])
            else
              begun = redis.call('SET', KEYS[1], '1', 'NX')
            end
            if begun then
              return 0
            end
            local created = redis.call('EXISTS', KEYS[2]) == 0
            local value = redis.call('INCRBY', KEYS[2], 1)
            local keep = tonumber(ARGV[2])
            if created and keep > 0 then
              redis.call('PEXPIRE', KEYS[2], ARGV[2])
            end
            if keep > 0 then
              redis.call('SET', KEYS[3], ARGV[3], 'PX', ARGV[2])
            else
              redis.call('SET', KEYS[3], ARGV[3])
            end
            return value
            """);

    // INCREMENT's count, then SET ... GET of the other key; a counter that is no integer fails before the swap
    static final Script INCREMENT_AND_SWAP = new Script("""
            local created = redis.call('EXISTS', KEYS[1]) == 0
            local value = redis.call('INCRBY', KEYS[1], 1)
            if created and tonumber(ARGV[1]) > 0 then
              redis.call('PEXPIRE', KEYS[1], ARGV[1])
            end
            local replaced
            if tonumber(ARGV[3]) > 0 then
              replaced = redis.call('SET', KEYS[2], ARGV[2], 'GET', 'PX', ARGV[3])
            else
              replaced = redis.call('SET', KEYS[2], ARGV[2], 'GET')
            end
            return {value, replaced}
            """);

    // INCREMENT's count, then MGET of the other keys; a counter that is no integer fails before anything is read
    static final Script INCREMENT_AND_GET_ALL = new Script("""
            local created = redis.call('EXISTS', KEYS[1]) == 0
            local value = redis.call('INCRBY', KEYS[1], 1)
            if created and tonumber(ARGV[1]) > 0 then
              redis.call('PEXPIRE', KEYS[1], ARGV[1])
            end
            local answer = {value}
            if #KEYS > 1 then
              local values = redis.call('MGET', unpack(KEYS, 2))
              for i = 1, #KEYS - 1 do
                answer[i + 1] = values[i]
              end
            end
            return answer
            """);

    // PERSIST alone answers 0 both for "absent" and for "had no ttl", which expire() must tell apart
    static final Script PERSIST = new Script("""
            if redis.call('EXISTS', KEYS[1]) == 0 then
              return 0
            end
            redis.call('PERSIST', KEYS[1])
            return 1
            """);

    private final String endpoint;
    private final RedisClient client;

    /** Connects lazily: a store for an unreachable Redis can be built, and answers {@code false} to ping. */
    public RedisKeyValueStore(String url) {
        URI uri = parse(url);
        this.endpoint = endpoint(uri);
        var pool = new ConnectionPoolConfig();
        pool.setMaxTotal(MAX_CONNECTIONS);
        pool.setMaxIdle(MAX_CONNECTIONS);
        pool.setMaxWait(BORROW_TIMEOUT);
        // the URL gives credentials, database, protocol and TLS; the timeouts are ours
        var config = DefaultJedisClientConfig.builder(uri)
                .connectionTimeoutMillis((int) CONNECT_TIMEOUT.toMillis())
                .socketTimeoutMillis((int) READ_TIMEOUT.toMillis())
                .clientName("atrium")
                .build();
        this.client = RedisClient.builder()
                .hostAndPort(JedisURIHelper.getHostAndPort(uri))
                .clientConfig(config)
                .poolConfig(pool)
                .build();
    }

    /** Where the store points, without credentials: safe to log. */
    public String endpoint() {
        return endpoint;
    }

    @Override
    public Optional<String> get(String key) {
        Objects.requireNonNull(key, "key");
        return Optional.ofNullable(call("GET", redis -> redis.get(key)));
    }

    @Override
    public List<Optional<String>> getAll(List<String> keys) {
        keys.forEach(k -> Objects.requireNonNull(k, "key"));
        if (keys.isEmpty()) {
            return List.of();
        }
        var values = call("MGET", redis -> redis.mget(keys.toArray(String[]::new)));
        return values.stream().map(Optional::ofNullable).toList();
    }

    @Override
    public void set(String key, String value, Duration ttl) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        long millis = Ttl.millis(ttl);
        call("SET", redis -> millis > 0 ? redis.set(key, value, SetParams.setParams().px(millis)) : redis.set(key, value));
    }

    @Override
    public boolean setIfAbsent(String key, String value, Duration ttl) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        var params = SetParams.setParams().nx();
        long millis = Ttl.millis(ttl);
        if (millis > 0) {
            params.px(millis);
        }
        return "OK".equals(call("SET NX", redis -> redis.set(key, value, params)));
    }

    @Override
    public boolean delete(String key) {
        Objects.requireNonNull(key, "key");
        return call("DEL", redis -> redis.del(key)) > 0;
    }

    @Override
    public Optional<String> getAndDelete(String key) {
        Objects.requireNonNull(key, "key");
        return Optional.ofNullable(call("GETDEL", redis -> redis.getDel(key)));
    }

    @Override
    public Optional<String> getAndSet(String key, String value, Duration ttl) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        long millis = Ttl.millis(ttl);
        return Optional.ofNullable(call("SET GET", redis -> millis > 0
                ? redis.setGet(key, value, SetParams.setParams().px(millis)) : redis.setGet(key, value)));
    }

    @Override
    public long add(String key, long delta, Duration ttlOnCreate) {
        Objects.requireNonNull(key, "key");
        String millis = Long.toString(Ttl.millis(ttlOnCreate));
        return (Long) call("INCRBY", redis -> INCREMENT.run(redis, List.of(key),
                List.of(millis, Long.toString(delta))));
    }

    @Override
    public long beginOrRepeat(String episodeKey, Duration episodeTtl, String countKey, String stampKey,
                              String stamp, Duration keep) {
        Objects.requireNonNull(episodeKey, "key");
        Objects.requireNonNull(countKey, "key");
        Objects.requireNonNull(stampKey, "key");
        Objects.requireNonNull(stamp, "value");
        List<String> args = List.of(Long.toString(Ttl.millis(episodeTtl)), Long.toString(Ttl.millis(keep)), stamp);
        return (Long) call("SET NX / INCRBY", redis -> BEGIN_OR_REPEAT.run(redis,
                List.of(episodeKey, countKey, stampKey), args));
    }

    @Override
    public CountAndSwap incrementAndSwap(String countKey, Duration ttlOnCreate, String swapKey, String value,
                                         Duration swapTtl) {
        Objects.requireNonNull(countKey, "key");
        Objects.requireNonNull(swapKey, "key");
        Objects.requireNonNull(value, "value");
        List<String> args = List.of(Long.toString(Ttl.millis(ttlOnCreate)), value, Long.toString(Ttl.millis(swapTtl)));
        var answer = (List<?>) call("INCRBY / SET GET", redis -> INCREMENT_AND_SWAP.run(redis,
                List.of(countKey, swapKey), args));
        // Lua's false (no value replaced) ends the reply early or comes back as null
        Object replaced = answer.size() > 1 ? answer.get(1) : null;
        return new CountAndSwap((Long) answer.get(0), Optional.ofNullable((String) replaced));
    }

    @Override
    public CountAndValues incrementAndGetAll(String countKey, Duration ttlOnCreate, List<String> keys) {
        Objects.requireNonNull(countKey, "key");
        keys.forEach(k -> Objects.requireNonNull(k, "key"));
        var scriptKeys = new ArrayList<String>(keys.size() + 1);
        scriptKeys.add(countKey);
        scriptKeys.addAll(keys);
        var answer = (List<?>) call("INCRBY / MGET", redis -> INCREMENT_AND_GET_ALL.run(redis, scriptKeys,
                List.of(Long.toString(Ttl.millis(ttlOnCreate)))));
        var values = new ArrayList<Optional<String>>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            // Lua's false (an absent key) comes back as null, or ends the reply early
            Object value = i + 1 < answer.size() ? answer.get(i + 1) : null;
            values.add(Optional.ofNullable((String) value));
        }
        return new CountAndValues((Long) answer.get(0), values);
    }

    @Override
    public boolean expire(String key, Duration ttl) {
        Objects.requireNonNull(key, "key");
        long millis = Ttl.millis(ttl);
        if (millis == 0) {
            return (Long) call("PERSIST", redis -> PERSIST.run(redis, List.of(key), List.of())) == 1;
        }
        return call("PEXPIRE", redis -> redis.pexpire(key, millis)) == 1;
    }

    @Override
    public Optional<Duration> ttl(String key) {
        Objects.requireNonNull(key, "key");
        long millis = call("PTTL", redis -> redis.pttl(key));
        // -2: absent, -1: no expiry
        return millis < 0 ? Optional.empty() : Optional.of(Duration.ofMillis(millis));
    }

    @Override
    public boolean ping() {
        try {
            return "PONG".equals(client.ping());
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, e, () -> "Redis at " + endpoint + " does not answer");
            return false;
        }
    }

    @Override
    public String backend() {
        return "redis";
    }

    @Override
    public void close() {
        client.close();
    }

    @Override
    public String toString() {
        return "RedisKeyValueStore[" + endpoint + "]";
    }

    private <T> T call(String command, Function<UnifiedJedis, T> operation) {
        try {
            return operation.apply(client);
        } catch (JedisException e) {
            throw new KeyValueStoreException("Redis " + command + " failed at " + endpoint + ": " + e.getMessage(), e);
        }
    }

    /**
     * A Lua script sent by its SHA-1 ({@code EVALSHA}): each call carries 40 bytes instead of the script, and Redis
     * finds the compiled script without hashing the text again. A Redis that does not have it (restarted, another
     * node, {@code SCRIPT FLUSH}) answers NOSCRIPT, and the script is then sent whole once ({@code EVAL}, which
     * caches it again).
     */
    record Script(String body, String sha1) {

        Script(String body) {
            this(body, sha1(body));
        }

        Object run(UnifiedJedis redis, List<String> keys, List<String> args) {
            try {
                return redis.evalsha(sha1, keys, args);
            } catch (JedisNoScriptException e) {
                return redis.eval(body, keys, args);
            }
        }

        private static String sha1(String body) {
            try {
                return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                        .digest(body.getBytes(StandardCharsets.UTF_8)));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-1 is part of every JDK", e);
            }
        }
    }

    private static URI parse(String url) {
        Objects.requireNonNull(url, "url");
        try {
            var uri = new URI(url.trim());
            var scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
            if (!scheme.equals("redis") && !scheme.equals("rediss") || uri.getHost() == null) {
                throw new IllegalArgumentException("Redis URL must look like redis://host:port/db or rediss://host:port/db");
            }
            int port = uri.getPort() == -1 ? 6379 : uri.getPort();
            // rebuilt from the raw parts, so an escaped character in the password is decoded exactly once
            return new URI(scheme + "://" + (uri.getRawUserInfo() == null ? "" : uri.getRawUserInfo() + "@")
                    + uri.getHost() + ":" + port + Objects.toString(uri.getRawPath(), "")
                    + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()));
        } catch (URISyntaxException e) {
            // not the exception's message: it would quote the URL, password included
            throw new IllegalArgumentException("Redis URL is not a valid URI (expected redis://host:port/db)");
        }
    }

    private static String endpoint(URI uri) {
        var path = uri.getPath() == null || uri.getPath().isEmpty() || "/".equals(uri.getPath()) ? "/0" : uri.getPath();
        return uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort() + path;
    }
}
