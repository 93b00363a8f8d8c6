package dev.atrium.sandbox;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * The only way out of a run that has network: the run gets an empty network namespace at every trust level, a relay
 * inside it listening on {@code 127.0.0.1:3128} (its {@code HTTPS_PROXY}/{@code HTTP_PROXY}), and the relay reaches
 * this proxy through a Unix socket mounted into the sandbox. The proxy answers {@code CONNECT host:port} and
 * absolute-form HTTP requests for hosts on the list (the name itself or a subdomain of it), or for any host when the
 * list is empty. The host is read strictly ({@link ProxyTarget}: odd spellings of addresses are refused, the
 * {@code Host} header is never used to route), a name is resolved once, here, and the connection goes to exactly
 * that address, and only when every address of the name is public ({@link AddressPolicy}: no loopback, private,
 * link-local, reserved or special range, no address of the host itself), so a name that resolves inward, or is
 * rebound between two lookups, reaches nothing. Each decision is recorded for the run's network attempts.
 *
 * <p>When the run may call the platform's invoke gateway ({@link Network#gatewayPort()}), the pseudo-host
 * {@value Network#GATEWAY_HOST} leads there, to the host's loopback port, for exactly one kind of request: an
 * absolute-form {@code POST http://gateway.atrium.internal/v1/agents/<name>/invoke[?version=N]} with a
 * {@code Content-Length} body of at most {@value #GATEWAY_MAX_BODY} bytes. The proxy reads the whole request, passes on
 * only {@code Authorization}, {@code Content-Type}, {@code Accept} and {@code Content-Length} (never a forwarded-for
 * header), asks the server to close after answering, and relays the answer and nothing more: a second request on the
 * same connection, a tunnel or any other path of the server is not reachable.
 */
final class EgressProxy implements AutoCloseable {

    static final int PORT = 3128;
    private static final int MAX_HEAD = 8192;
    private static final int MAX_LOG = 100;
    private static final int MAX_CONNECTIONS = 64;
    static final int GATEWAY_MAX_BODY = 1024 * 1024;
    private static final Pattern GATEWAY_PATH = Pattern.compile(
            "/v1/agents/[A-Za-z0-9][A-Za-z0-9._-]{0,63}/invoke(\\?version=v?[0-9]{1,6})?");
    private static final Set<String> GATEWAY_HEADERS = Set.of("authorization", "content-type", "accept",
            "content-length");
    static final String RELAY = """
            import socket, threading
            def pipe(a, b):
                try:
                    while True:
                        data = a.recv(65536)
                        if not data:
                            break
                        b.sendall(data)
                except OSError:
                    pass
                finally:
                    for s in (a, b):
                        try:
                            s.shutdown(socket.SHUT_RDWR)
                        except OSError:
                            pass
            def serve(client):
                upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                try:
                    upstream.connect("/run/atrium/egress.sock")
                except OSError:
                    client.close()
                    return
                threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
                pipe(upstream, client)
            server = socket.socket()
            server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            server.bind(("127.0.0.1", %d))
            server.listen(64)
            print("ready", flush=True)
            while True:
                client, _ = server.accept()
                threading.Thread(target=serve, args=(client,), daemon=True).start()
            """.formatted(PORT);
    /** Starts the relay in the background, waits (at most 5 s) until it listens, then becomes the agent. */
    static final String WRAPPER = """
            /usr/bin/python3 /run/atrium/relay.py > /tmp/.egress-ready 2>/dev/null &
            i=0
            while [ ! -s /tmp/.egress-ready ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i+1)); done
            exec "$@"
            """;

    private final List<String> domains;
    private final boolean anyHost;
    private final int gatewayPort;
    private final AddressPolicy policy;
    private final Path dir;
    private final ServerSocketChannel server;
    private final List<String> log = Collections.synchronizedList(new ArrayList<>());
    private final Set<AutoCloseable> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger connections = new AtomicInteger();

    private EgressProxy(Network network, AddressPolicy policy, Path dir, ServerSocketChannel server) {
        this.domains = network.allowed() ? network.allowedDomains().stream().map(EgressProxy::host).toList()
                : List.of();
        // network without a domain list: any public address
        this.anyHost = network.allowed() && network.allowedDomains().isEmpty();
        this.gatewayPort = network.gatewayPort();
        this.policy = policy;
        this.dir = dir;
        this.server = server;
    }

    static final String DIR_PREFIX = "atrium-egress-";

    /**
     * A proxy for the network's domains (and gateway), its socket and relay in a fresh directory that uid 65534 can
     * reach, named after the run so a crashed owner's directory can be swept.
     */
    static EgressProxy start(String run, Network network, AddressPolicy policy) throws IOException {
        Path dir = Files.createTempDirectory(DIR_PREFIX + run + "-");
        ServerSocketChannel server = null;
        try {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx--x--x"));
            Path relay = dir.resolve("relay.py");
            Files.writeString(relay, RELAY);
            Files.setPosixFilePermissions(relay, PosixFilePermissions.fromString("rw-r--r--"));
            Path socket = dir.resolve("egress.sock");
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(socket));
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-rw-rw-"));
            var proxy = new EgressProxy(network, policy, dir, server);
            Thread accept = new Thread(proxy::accept, "sandbox-egress-" + dir.getFileName());
            accept.setDaemon(true);
            accept.start();
            return proxy;
        } catch (IOException | RuntimeException e) {
            if (server != null) {
                server.close();
            }
            FileTrees.delete(dir);
            throw e;
        }
    }

    Path dir() {
        return dir;
    }

    List<String> log() {
        synchronized (log) {
            return List.copyOf(log);
        }
    }

    private void accept() {
        while (server.isOpen()) {
            try {
                SocketChannel client = server.accept();
                if (connections.incrementAndGet() > MAX_CONNECTIONS) {
                    // each connection costs the JVM two threads: a run gets a bounded number of them
                    record("proxy connection refused: more than " + MAX_CONNECTIONS + " in one run");
                    closeQuietly(client);
                    continue;
                }
                open.add(client);
                Thread t = new Thread(() -> serve(client), "sandbox-egress-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(SocketChannel client) {
        Socket upstream = null;
        boolean tunnelling = false;
        try {
            // the channel itself, not Channels' streams: those hold one lock for reading and writing both
            InputStream in = new ChannelIn(client);
            OutputStream out = new ChannelOut(client);
            byte[] head = readHead(in);
            if (head == null) {
                return;
            }
            String text = new String(head, StandardCharsets.ISO_8859_1);
            String[] line = text.substring(0, Math.max(0, text.indexOf("\r\n"))).split(" ");
            if (line.length != 3) {
                out.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                return;
            }
            boolean connect = line[0].equalsIgnoreCase("CONNECT");
            ProxyTarget target;
            try {
                target = connect ? ProxyTarget.connect(line[1]) : ProxyTarget.absolute(line[1]);
            } catch (IllegalArgumentException e) {
                record("proxy " + line[0] + " " + abbreviate(line[1]) + " denied: " + e.getMessage());
                out.write(FORBIDDEN);
                return;
            }
            String host = target.host();
            int port = target.port();
            String what = line[0] + " " + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
            if (host.equals(Network.GATEWAY_HOST)) {
                if (gatewayPort > 0 && !connect) {
                    gateway(line, text, in, out);
                } else {
                    record("proxy " + what + " denied");
                    out.write(FORBIDDEN);
                }
                return;
            }
            if (!allowed(host)) {
                record("proxy " + what + " denied: not a listed domain");
                out.write(FORBIDDEN);
                return;
            }
            InetAddress address;
            try {
                address = outward(target);
            } catch (IOException e) {
                record("proxy " + what + " denied: " + e.getMessage());
                out.write(FORBIDDEN);
                return;
            }
            record("proxy " + what + " allowed (" + address.getHostAddress() + ")");
            upstream = new Socket();
            open.add(upstream);
            upstream.connect(new InetSocketAddress(address, port), 10_000);
            if (connect) {
                out.write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            } else {
                upstream.getOutputStream().write(head);
            }
            Socket up = upstream;
            tunnelling = true;
            Thread back = new Thread(() -> copy(inputOf(up), out, client, up), "sandbox-egress-back");
            back.setDaemon(true);
            back.start();
            copy(in, up.getOutputStream(), client, up);
        } catch (IOException | RuntimeException e) {
            tunnelling = false;
        } finally {
            // a refusal or a failure ends the conversation; a tunnel is closed by its copies
            if (!tunnelling) {
                closeQuietly(client);
                closeQuietly(upstream);
            }
        }
    }

    private static final byte[] FORBIDDEN = "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII);

    /** One request to the invoke gateway, read whole, passed on cleaned, its answer relayed; then the end. */
    private void gateway(String[] line, String head, InputStream in, OutputStream out) throws IOException {
        URI uri = URI.create(line[1]);
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        String target = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        if (!line[0].equals("POST") || !GATEWAY_PATH.matcher(target).matches() || uri.getPort() > 0
                && uri.getPort() != 80) {
            record("gateway " + line[0] + " " + abbreviate(target) + " denied");
            out.write(FORBIDDEN);
            return;
        }
        var kept = new StringBuilder();
        long length = -1;
        for (String header : head.split("\r\n")) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = header.substring(colon + 1).trim();
            if (name.equals("transfer-encoding") || name.equals("content-length") && length >= 0) {
                // a body whose end the proxy cannot tell for itself, or two lengths: refused
                length = -2;
                break;
            }
            if (name.equals("content-length")) {
                try {
                    length = Long.parseLong(value);
                } catch (NumberFormatException e) {
                    length = -2;
                    break;
                }
            }
            if (GATEWAY_HEADERS.contains(name) && value.indexOf('\r') < 0 && value.indexOf('\n') < 0) {
                kept.append(header, 0, colon).append(": ").append(value).append("\r\n");
            }
        }
        if (length < 0 || length > GATEWAY_MAX_BODY) {
            record("gateway POST " + target + " refused: " + (length > GATEWAY_MAX_BODY ? "body too large"
                    : "no single Content-Length"));
            out.write(("HTTP/1.1 " + (length > GATEWAY_MAX_BODY ? "413 Content Too Large" : "411 Length Required")
                    + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            return;
        }
        byte[] body = in.readNBytes((int) length);
        if (body.length != length) {
            return;
        }
        record("gateway POST " + target);
        try (Socket upstream = new Socket()) {
            open.add(upstream);
            upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), gatewayPort), 10_000);
            var request = new ByteArrayOutputStream();
            request.writeBytes(("POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + gatewayPort + "\r\n" + kept
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            request.writeBytes(body);
            upstream.getOutputStream().write(request.toByteArray());
            upstream.getOutputStream().flush();
            upstream.getInputStream().transferTo(out);
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "…";
    }

    private static InputStream inputOf(Socket socket) {
        try {
            return socket.getInputStream();
        } catch (IOException e) {
            return InputStream.nullInputStream();
        }
    }

    private void copy(InputStream from, OutputStream to, SocketChannel client, Socket upstream) {
        try {
            from.transferTo(to);
            to.flush();
        } catch (IOException ignored) {
            // the other side went away
        } finally {
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }

    /** Reads the channel directly, so a writer on another thread is never blocked by this read. */
    private static final class ChannelIn extends InputStream {
        private final SocketChannel channel;

        ChannelIn(SocketChannel channel) {
            this.channel = channel;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return len == 0 ? 0 : channel.read(ByteBuffer.wrap(b, off, len));
        }
    }

    private static final class ChannelOut extends OutputStream {
        private final SocketChannel channel;

        ChannelOut(SocketChannel channel) {
            this.channel = channel;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            ByteBuffer buffer = ByteBuffer.wrap(b, off, len);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        }
    }

    private static byte[] readHead(InputStream in) throws IOException {
        var head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            byte[] h = head.toByteArray();
            int n = h.length;
            if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
                return h;
            }
            if (n > MAX_HEAD) {
                return null;
            }
        }
        return null;
    }

    /** The host itself or a subdomain of a listed one ({@code *.example.com} and {@code example.com} alike). */
    boolean allowed(String host) {
        if (host.isEmpty()) {
            return false;
        }
        if (anyHost) {
            return true;
        }
        for (String domain : domains) {
            String d = domain.startsWith("*.") ? domain.substring(2) : domain;
            if (host.equals(d) || host.endsWith("." + d)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The one address to connect to: the literal written, or the first of the name's addresses, resolved once here
     * and never again (a second lookup could answer otherwise). A name any of whose addresses is refused is refused.
     */
    private InetAddress outward(ProxyTarget target) throws IOException {
        InetAddress[] addresses;
        if (target.literal() != null) {
            addresses = new InetAddress[] {target.literal()};
        } else {
            try {
                addresses = InetAddress.getAllByName(target.name());
            } catch (IOException e) {
                throw new IOException("the name does not resolve");
            }
        }
        for (InetAddress a : addresses) {
            String refusal = policy.refusal(a);
            if (refusal != null) {
                throw new IOException(a.getHostAddress() + " is " + refusal);
            }
        }
        return addresses[0];
    }

    private static String host(String name) {
        String h = name.trim().toLowerCase(Locale.ROOT);
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }

    private void record(String line) {
        synchronized (log) {
            if (log.size() < MAX_LOG) {
                log.add(line);
            }
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // closing anyway
            }
        }
    }

    @Override
    public void close() {
        closeQuietly(server);
        for (AutoCloseable c : open) {
            closeQuietly(c);
        }
        FileTrees.delete(dir);
    }
}
