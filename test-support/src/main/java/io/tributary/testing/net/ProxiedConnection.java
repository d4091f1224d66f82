package io.tributary.testing.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One client connection of a {@link TcpProxy} and its connection to the target: per direction a reader thread
 * stamps each chunk with its release time and queues it, and a writer thread writes chunks in order once due.
 * The queue is bounded, so a slow receiver slows the sender (backpressure). With a bandwidth cap, each writer
 * paces itself: a chunk of n bytes is written no earlier than the previous chunk's write time plus the previous
 * chunk's n / cap, so each direction of each connection moves at most cap bytes per second (idle time earns no
 * credit). An end of stream is forwarded as a half-close; an error on either side closes both sockets.
 */
final class ProxiedConnection {

    private static final int CHUNK_BYTES = 16 * 1024;
    private static final int QUEUED_CHUNKS = 256;

    private final TcpProxy proxy;
    private final String name;
    private final Socket client;
    private final Socket target;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicInteger openDirections = new AtomicInteger(2);
    private final Thread[] threads = new Thread[4];

    ProxiedConnection(TcpProxy proxy, String name, Socket client, Socket target) {
        this.proxy = proxy;
        this.name = name;
        this.client = client;
        this.target = target;
    }

    void start() {
        BlockingQueue<Chunk> upstream = new ArrayBlockingQueue<>(QUEUED_CHUNKS);
        BlockingQueue<Chunk> downstream = new ArrayBlockingQueue<>(QUEUED_CHUNKS);
        threads[0] = thread("c2t-read", () -> read(client, upstream));
        threads[1] = thread("c2t-write", () -> write(upstream, target));
        threads[2] = thread("t2c-read", () -> read(target, downstream));
        threads[3] = thread("t2c-write", () -> write(downstream, client));
        for (Thread thread : threads) {
            thread.start();
        }
    }

    /** Closes both sockets and stops the threads. Idempotent. */
    void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        TcpProxy.closeQuietly(client);
        TcpProxy.closeQuietly(target);
        for (Thread thread : threads) {
            if (thread != null && thread != Thread.currentThread()) {
                thread.interrupt();
            }
        }
        proxy.closed(this);
    }

    private Thread thread(String suffix, Runnable body) {
        Thread thread = new Thread(body, name + "-" + suffix);
        thread.setDaemon(true);
        return thread;
    }

    private void read(Socket from, BlockingQueue<Chunk> queue) {
        byte[] buffer = new byte[CHUNK_BYTES];
        try {
            InputStream in = from.getInputStream();
            while (!closed.get()) {
                int n = in.read(buffer);
                long due = System.nanoTime() + proxy.latencyNanos();
                queue.put(n < 0 ? Chunk.endOfStream(due) : Chunk.data(Arrays.copyOf(buffer, n), due));
                if (n < 0) {
                    return;
                }
            }
        } catch (IOException e) {
            close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
        }
    }

    private void write(BlockingQueue<Chunk> queue, Socket to) {
        try {
            OutputStream out = to.getOutputStream();
            long nextFree = System.nanoTime();
            while (!closed.get()) {
                Chunk chunk = queue.take();
                long now = System.nanoTime();
                long due = Math.max(chunk.dueNanos(), Math.max(now, nextFree));
                if (due > now) {
                    TimeUnit.NANOSECONDS.sleep(due - now);
                }
                nextFree = due + proxy.transferNanos(chunk.bytes().length);
                if (chunk.isEndOfStream()) {
                    to.shutdownOutput();
                    if (openDirections.decrementAndGet() == 0) {
                        close();
                    }
                    return;
                }
                out.write(chunk.bytes());
                out.flush();
                proxy.forwarded(chunk.bytes().length);
            }
        } catch (IOException e) {
            close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
        }
    }

    /** Bytes read from one side and the time they may be written to the other, or the end of the stream. */
    private record Chunk(byte[] bytes, long dueNanos, boolean isEndOfStream) {

        static Chunk data(byte[] bytes, long dueNanos) {
            return new Chunk(bytes, dueNanos, false);
        }

        static Chunk endOfStream(long dueNanos) {
            return new Chunk(new byte[0], dueNanos, true);
        }
    }
}
