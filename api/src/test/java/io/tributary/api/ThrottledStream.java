package io.tributary.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A sync stream read by a slow client: a plain HTTP/1.0 socket with a receive buffer of a few KiB, read only when
 * the test asks for lines. While the test does not read, the server's writes block after a few pages of ops, so
 * its next page reads wait until the test reads on. Not thread-safe.
 */
final class ThrottledStream implements AutoCloseable {

    private static final int RECEIVE_BUFFER = 4096;

    private final Socket socket;
    private final BufferedReader in;
    private final List<JsonNode> read = new ArrayList<>();

    private ThrottledStream(Socket socket, BufferedReader in) {
        this.socket = socket;
        this.in = in;
    }

    /** Opens {@code POST uri} with {@code authorization} and {@code requestJson}; reads the response headers. */
    static ThrottledStream open(URI uri, String authorization, String requestJson) throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(RECEIVE_BUFFER);
        socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 10_000);
        socket.setSoTimeout((int) Duration.ofSeconds(60).toMillis());
        byte[] body = requestJson.getBytes(StandardCharsets.UTF_8);
        OutputStream out = socket.getOutputStream();
        out.write(("POST " + uri.getRawPath() + " HTTP/1.0\r\nHost: " + uri.getHost() + ":" + uri.getPort()
            + "\r\nAuthorization: " + authorization + "\r\nContent-Type: application/json\r\nContent-Length: "
            + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
            StandardCharsets.UTF_8), 512);
        String status = in.readLine();
        if (status == null || !status.contains(" 200 ")) {
            socket.close();
            throw new IOException("Sync stream refused: " + status);
        }
        for (String header = in.readLine(); header != null && !header.isEmpty(); header = in.readLine()) {
            // response headers
        }
        return new ThrottledStream(socket, in);
    }

    /** Reads lines up to and including the first that matches; returns the lines it read. */
    List<JsonNode> until(Predicate<JsonNode> last) throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        while (true) {
            String text = in.readLine();
            if (text == null) {
                throw new IOException("The stream ended before the line awaited; read " + lines.size() + " lines");
            }
            if (text.isBlank()) {
                continue;
            }
            JsonNode line = SyncClient.JSON.readTree(text);
            lines.add(line);
            read.add(line);
            if (last.test(line)) {
                return lines;
            }
        }
    }

    /** Every line read so far. */
    List<JsonNode> lines() {
        return read;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
