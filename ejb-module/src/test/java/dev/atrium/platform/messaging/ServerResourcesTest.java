package dev.atrium.platform.messaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.ZipFile;

import javax.xml.parsers.DocumentBuilderFactory;

import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;


/**
 * The messaging is wired by names in several places (the handlers, the message-driven beans, their mapping to the
 * resource adapter on each runtime and the resources the server creates); this fails when one of them drifts.
 */
class ServerResourcesTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String ADAPTER = "atrium#artemis-rar";

    @Test
    void whenAHandlerConsumesAQueueOrTopicThenOneMessageDrivenBeanListensToIt() throws Exception {
        var handled = new TreeSet<String>();
        for (var type : classes(MessageHandler.class, MessageHandler.class)) {
            handled.add("queue " + ((MessageHandler) instance(type)).queue());
        }
        for (var type : classes(TopicHandler.class, TopicHandler.class)) {
            handled.add("topic " + ((TopicHandler) instance(type)).topic());
        }
        var listened = new ArrayList<String>();
        for (var type : listeners()) {
            var config = activation(type);
            var listener = (Listener) instance(type);
            assertThat(config.get("destination")).as(type.getSimpleName()).isEqualTo(listener.destination());
            assertThat(config.get("useJNDI")).as(type.getSimpleName()).isEqualTo("false");
            boolean topic = "jakarta.jms.Topic".equals(config.get("destinationType"));
            assertThat(topic).as(type.getSimpleName()).isEqualTo(listener instanceof Listener.OfTopic);
            listened.add((topic ? "topic " : "queue ") + config.get("destination"));
        }
        assertThat(handled).isNotEmpty();
        assertThat(listened).containsExactlyInAnyOrderElementsOf(handled);
    }

    @Test
    void whenTheEarIsDeployedThenEveryMessageDrivenBeanListensThroughArtemissAdapter() throws Exception {
        var mapping = xml(Path.of(Listener.class.getResource("/META-INF/glassfish-ejb-jar.xml").toURI()));
        var mapped = new TreeMap<String, String>();
        var ejbs = mapping.getElementsByTagName("ejb");
        for (int i = 0; i < ejbs.getLength(); i++) {
            var ejb = (Element) ejbs.item(i);
            mapped.put(text(ejb, "ejb-name"), text(ejb, "resource-adapter-mid"));
        }
        var names = new TreeSet<String>();
        listeners().forEach(type -> names.add(type.getSimpleName()));
        assertThat(mapped.keySet()).isEqualTo(names);
        assertThat(mapped.values()).containsOnly(ADAPTER);
        // the adapter's name is the EAR's name and the module's file name
        String ear = Files.readString(ROOT.resolve("ear/pom.xml"));
        assertThat(ear).contains("<finalName>atrium</finalName>", "<bundleFileName>artemis-rar.rar</bundleFileName>");
    }

    @Test
    void whenTheWarIsDeployedThenEveryMessageDrivenBeanListensThroughTheAdapterDeployedBeforeIt() throws Exception {
        var ear = xml(Path.of(Listener.class.getResource("/META-INF/glassfish-ejb-jar.xml").toURI()));
        var war = xml(ROOT.resolve("web-module/src/main/webapp/WEB-INF/glassfish-ejb-jar.xml"));
        var onEar = new TreeMap<String, String>();
        var onWar = new TreeMap<String, String>();
        var ejbs = ear.getElementsByTagName("ejb");
        for (int i = 0; i < ejbs.getLength(); i++) {
            var ejb = (Element) ejbs.item(i);
            onEar.put(text(ejb, "ejb-name"), ejb.getElementsByTagName("cmt-timeout-in-seconds").getLength() == 0
                    ? "" : text(ejb, "cmt-timeout-in-seconds"));
        }
        ejbs = war.getElementsByTagName("ejb");
        for (int i = 0; i < ejbs.getLength(); i++) {
            var ejb = (Element) ejbs.item(i);
            assertThat(text(ejb, "resource-adapter-mid")).isEqualTo("artemis-rar");
            onWar.put(text(ejb, "ejb-name"), ejb.getElementsByTagName("cmt-timeout-in-seconds").getLength() == 0
                    ? "" : text(ejb, "cmt-timeout-in-seconds"));
        }
        assertThat(onWar).isEqualTo(onEar);
        // every launcher of Payara Micro deploys the adapter by that file name (scripts/run and scripts/bench-startup
        // through scripts/launcher's command)
        for (String launcher : List.of("scripts/launcher", "docker/Dockerfile",
                "web-module/src/test/java/dev/atrium/it/AtriumServer.java")) {
            assertThat(Files.readString(ROOT.resolve(launcher))).as(launcher).contains("artemis-rar.rar");
        }
    }

    @Test
    void whenTheEarIsDeployedThenTheServerBindsTheFactoryAndEveryDestinationOnTheAdapter() throws Exception {
        var resources = xml(ROOT.resolve("server-config/payara/ear/META-INF/glassfish-resources.xml"));
        var pool = (Element) resources.getElementsByTagName("connector-connection-pool").item(0);
        var factory = (Element) resources.getElementsByTagName("connector-resource").item(0);
        assertThat(pool.getAttribute("resource-adapter-name")).isEqualTo(ADAPTER);
        assertThat(pool.getAttribute("transaction-support")).isEqualTo("XATransaction");
        assertThat(factory.getAttribute("jndi-name")).isEqualTo(ServerMessaging.CONNECTION_FACTORY);
        assertThat(factory.getAttribute("pool-name")).isEqualTo(pool.getAttribute("name"));

        var bound = new TreeMap<String, String>();
        var objects = resources.getElementsByTagName("admin-object-resource");
        for (int i = 0; i < objects.getLength(); i++) {
            var object = (Element) objects.item(i);
            assertThat(object.getAttribute("res-adapter")).isEqualTo(ADAPTER);
            var property = (Element) object.getElementsByTagName("property").item(0);
            assertThat(property.getAttribute("name")).isEqualTo("Address");
            bound.put(object.getAttribute("jndi-name"), property.getAttribute("value"));
        }
        var expected = new TreeMap<String, String>();
        for (var type : listeners()) {
            var config = activation(type);
            String kind = "jakarta.jms.Topic".equals(config.get("destinationType")) ? "topic/" : "queue/";
            expected.put(ServerMessaging.DESTINATIONS + kind + config.get("destination"), config.get("destination"));
        }
        expected.put(ServerMessaging.DESTINATIONS + "queue/" + BrokerConnection.DEAD_LETTER_QUEUE,
                BrokerConnection.DEAD_LETTER_QUEUE);
        assertThat(bound).isEqualTo(expected);
    }

    /** The message-driven beans of the EJB module. */
    static List<Class<?>> listeners() throws IOException, URISyntaxException {
        var found = new ArrayList<Class<?>>();
        for (var type : classes(Listener.class, Listener.class)) {
            if (type.isAnnotationPresent(MessageDriven.class)) {
                found.add(type);
            }
        }
        assertThat(found).isNotEmpty();
        return found;
    }

    private static Map<String, String> activation(Class<?> type) {
        var config = new TreeMap<String, String>();
        for (ActivationConfigProperty property : type.getAnnotation(MessageDriven.class).activationConfig()) {
            config.put(property.propertyName(), property.propertyValue());
        }
        return config;
    }

    /** The concrete classes of the jar or directory {@code anchor} was loaded from that are a {@code type}. */
    private static List<Class<?>> classes(Class<?> anchor, Class<?> type) throws IOException, URISyntaxException {
        var location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        var names = new ArrayList<String>();
        if (Files.isDirectory(location)) {
            try (var files = Files.walk(location)) {
                files.map(location::relativize).map(Path::toString).forEach(names::add);
            }
        } else {
            try (var jar = new ZipFile(location.toFile())) {
                jar.stream().map(java.util.zip.ZipEntry::getName).forEach(names::add);
            }
        }
        var found = new ArrayList<Class<?>>();
        for (String name : names) {
            if (!name.endsWith(".class") || name.contains("$") || name.endsWith("package-info.class")) {
                continue;
            }
            try {
                var candidate = Class.forName(name.replace('/', '.').replace('\\', '.')
                        .substring(0, name.length() - ".class".length()), false, anchor.getClassLoader());
                if (type.isAssignableFrom(candidate) && !candidate.isInterface()
                        && !Modifier.isAbstract(candidate.getModifiers())) {
                    found.add(candidate);
                }
            } catch (ClassNotFoundException | LinkageError e) {
                // a class whose dependencies this module does not have is no handler of ours
            }
        }
        return found;
    }

    private static Object instance(Class<?> type) throws ReflectiveOperationException {
        var constructor = type.getDeclaredConstructor();
        constructor.setAccessible(true);
        return constructor.newInstance();
    }

    private static Document xml(Path file) throws Exception {
        var factory = DocumentBuilderFactory.newInstance();
        // the descriptors name their DTDs by URL; nothing is fetched
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        return factory.newDocumentBuilder().parse(file.toFile());
    }

    private static String text(Element parent, String tag) {
        return parent.getElementsByTagName(tag).item(0).getTextContent().trim();
    }
}
