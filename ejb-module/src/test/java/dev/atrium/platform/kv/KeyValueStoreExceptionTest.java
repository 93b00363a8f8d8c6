package dev.atrium.platform.kv;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ejb.EJBException;

import org.junit.jupiter.api.Test;

class KeyValueStoreExceptionTest {

    @Test
    void whenTheStoreFailedBehindAContainersWrappersThenItIsFound() {
        var store = new KeyValueStoreException("Redis does not answer");
        assertThat(KeyValueStoreException.behind(store)).containsSame(store);
        assertThat(KeyValueStoreException.behind(new EJBException(new RuntimeException("call", store))))
                .containsSame(store);
    }

    @Test
    void whenNoStoreFailedThenNothingIsFoundEvenInACauseThatIsItself() {
        assertThat(KeyValueStoreException.behind(new IllegalStateException("other"))).isEmpty();
        assertThat(KeyValueStoreException.behind(null)).isEmpty();
        var looped = new RuntimeException() {
            @Override
            public synchronized Throwable getCause() {
                return this;
            }
        };
        assertThat(KeyValueStoreException.behind(looped)).isEmpty();
    }
}
