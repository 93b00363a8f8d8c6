package dev.atrium.platform.kv;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;

/** A store that names each call it passes on: each is a round trip to Redis in production. */
public final class CountedStore {

    private CountedStore() {
    }

    public static KeyValueStore of(KeyValueStore target, List<String> calls) {
        return (KeyValueStore) Proxy.newProxyInstance(KeyValueStore.class.getClassLoader(),
                new Class<?>[] {KeyValueStore.class}, (proxy, method, args) -> {
                    calls.add(method.getName());
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
