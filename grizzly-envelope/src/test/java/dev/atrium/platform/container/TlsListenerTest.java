package dev.atrium.platform.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import org.glassfish.grizzly.nio.transport.TCPNIOServerConnection;
import org.glassfish.grizzly.nio.transport.TCPNIOTransport;
import org.glassfish.grizzly.nio.transport.TCPNIOTransportBuilder;
import org.glassfish.grizzly.ssl.SSLBaseFilter;
import org.glassfish.grizzly.ssl.SSLEngineConfigurator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TLS listener's chain as the envelope leaves it, served by a Grizzly transport of this JVM on a self-signed key:
 * the parser's refusals over TLS answer in the envelope, and a client that offers {@code h2} over ALPN gets it from
 * its first connection on, with the server's HTTP/2 settings.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TlsListenerTest {

    private static final char[] PASSWORD = "changeit".toCharArray();

    @TempDir
    static Path keys;

    private static SSLContext server;
    private static TCPNIOTransport transport;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        server = serverContext(keys);
        var unification = new EnvelopePortUnification();
        unification.configure(null, null, EnvelopePortUnificationTest.element(EnvelopePortUnificationTest.HTTP2,
                "true"));
        transport = TCPNIOTransportBuilder.newInstance().build();
        transport.setProcessor(EnvelopePortUnificationTest.tlsListener(unification, tlsFilter(server)));
        TCPNIOServerConnection bound = transport.bind("127.0.0.1", 0);
        transport.start();
        port = ((InetSocketAddress) bound.getLocalAddress()).getPort();
    }

    @AfterAll
    static void stop() throws IOException {
        if (transport != null) {
            transport.shutdownNow();
        }
    }

    /** Payara's TLS filter, as GenericGrizzlyListener.configureSsl makes it. */
    static SSLBaseFilter tlsFilter(SSLContext context) {
        return new SSLBaseFilter(new SSLEngineConfigurator(context, false, false, false));
    }

    @Test
    @Order(1)
    void whenAClientOffersH2OverAlpnThenItsFirstConnectionSpeaksHttp2() throws Exception {
        try (SSLSocket socket = connect("h2", "http/1.1")) {
            socket.startHandshake();
            assertThat(socket.getApplicationProtocol()).isEqualTo("h2");
            // the connection preface, then an empty SETTINGS frame (length 0, type 4, no flags, stream 0)
            socket.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0});
            socket.getOutputStream().flush();
            byte[] frame = socket.getInputStream().readNBytes(9);
            assertThat(frame).as("the header of the server's first HTTP/2 frame").hasSize(9);
            assertThat(frame[3]).as("a SETTINGS frame").isEqualTo((byte) 4);
        }
    }

    @Test
    void whenAClientOffersOnlyHttp11ThenItGetsHttp11() throws Exception {
        try (SSLSocket socket = connect("http/1.1")) {
            socket.startHandshake();
            assertThat(socket.getApplicationProtocol()).isEqualTo("http/1.1");
        }
    }

    @Test
    void whenTheParserRefusesBytesOverTlsThenItsStatusAnswersInTheEnvelope() throws Exception {
        // Payara's Grizzly also refuses a non-ASCII or control byte in a value (ContainerErrorsIT); this one does not
        assertRefused("GET /health HTTP/9.9\r\nHost: localhost\r\n\r\n", 505);
        assertRefused("GET /health HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n", 400);
    }

    private static void assertRefused(String request, int status) throws Exception {
        try (SSLSocket socket = connect()) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            String answer = readAll(socket.getInputStream());
            String body = Refusal.body(status);
            assertThat(answer).as(request).startsWith("HTTP/1.1 " + status + " ")
                    .contains("Content-Type: application/json;charset=UTF-8\r\n", "Connection: close\r\n",
                            "Content-Length: " + body.length() + "\r\n")
                    .endsWith("\r\n\r\n" + body);
        }
    }

    private static SSLSocket connect(String... protocols) throws Exception {
        SSLContext client = SSLContext.getInstance("TLS");
        client.init(null, new TrustManager[] {new TrustAll()}, null);
        var socket = (SSLSocket) client.getSocketFactory().createSocket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        if (protocols.length > 0) {
            var parameters = socket.getSSLParameters();
            parameters.setApplicationProtocols(protocols);
            socket.setSSLParameters(parameters);
        }
        return socket;
    }

    private static String readAll(InputStream in) throws IOException {
        var out = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        try {
            for (int n; (n = in.read(buffer)) > 0; ) {
                out.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException | javax.net.ssl.SSLException e) {
            // what came before the timeout or the close is the answer
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    /** A self-signed key for localhost, made by the JDK's keytool. */
    private static SSLContext serverContext(Path directory) throws Exception {
        Path store = directory.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "atrium", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "san=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD))
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(keytool.exitValue()).as(output).isZero();
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keyStore.load(in, PASSWORD);
        }
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keyManagers.init(keyStore, PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers.getKeyManagers(), null, null);
        return context;
    }

    /** The test's own self-signed key: nothing to verify. */
    private static final class TrustAll implements X509TrustManager {

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            // trusted
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            // trusted
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
