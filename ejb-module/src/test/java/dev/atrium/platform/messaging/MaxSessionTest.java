package dev.atrium.platform.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Set;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

import org.eclipse.microprofile.config.inject.ConfigProperties;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.atrium.ai.control.AiConfig;
import dev.atrium.ai.control.files.FileParseListener;
import dev.atrium.ai.control.tasks.TasksListener;
import dev.atrium.billing.control.BillingConfig;
import dev.atrium.billing.control.BillingListener;
import dev.atrium.platform.config.ConfigDefaults;

/**
 * A bean's {@code maxSession} is what sets how many messages of its queue an instance handles at once. An annotation
 * can only name a configuration key with a default written into it; this keeps key and default equal to the field of
 * the context's configuration class that declares them.
 */
class MaxSessionTest {

    private static final AiConfig AI = ConfigDefaults.of(AiConfig.class);
    private static final BillingConfig BILLING = ConfigDefaults.of(BillingConfig.class);

    @Test
    void whenTheTasksBeanIsActivatedThenItsSessionsAreTheTaskWorkers() throws Exception {
        assertThat(maxSession(TasksListener.class)).isEqualTo(fromConfig(AiConfig.class, "taskWorkers",
                AI.taskWorkers));
    }

    @Test
    void whenTheUploadsBeanIsActivatedThenItsSessionsAreTheParseWorkers() throws Exception {
        assertThat(maxSession(FileParseListener.class)).isEqualTo(fromConfig(AiConfig.class, "fileParseWorkers",
                AI.fileParseWorkers));
    }

    @Test
    void whenTheBillingBeanIsActivatedThenItsSessionsAreTheQueueConsumers() throws Exception {
        assertThat(maxSession(BillingListener.class)).isEqualTo(fromConfig(BillingConfig.class, "queueConsumers",
                BILLING.queueConsumers));
    }

    @Test
    void whenAnyOtherBeanIsActivatedThenItTakesOneMessageAtATime() throws Exception {
        var configured = Set.of(TasksListener.class, FileParseListener.class, BillingListener.class);
        for (var type : ServerResourcesTest.listeners()) {
            if (!configured.contains(type)) {
                // unset, the adapter would open 15 sessions
                assertThat(maxSession(type)).as(type.getSimpleName()).isEqualTo("1");
            }
        }
    }

    /** What the activation reads when it is deployed: the key the field declares, with the field's default. */
    private static String fromConfig(Class<?> config, String field, int defaultValue) throws NoSuchFieldException {
        String prefix = config.getAnnotation(ConfigProperties.class).prefix();
        String name = config.getField(field).getAnnotation(ConfigProperty.class).name();
        return "${MPCONFIG=" + prefix + "." + name + ":" + defaultValue + "}";
    }

    private static String maxSession(Class<?> bean) {
        return Arrays.stream(bean.getAnnotation(MessageDriven.class).activationConfig())
                .filter(p -> p.propertyName().equals("maxSession")).map(ActivationConfigProperty::propertyValue)
                .findFirst().orElse("(unset)");
    }
}
