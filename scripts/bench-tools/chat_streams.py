"""Streams chat answers from /api/chat/stream and reports the time to the first event and to the end.

  chat_streams.py BASE TOKEN MODEL first N       N streams one after another: time to first event, p50/p90/p99
  chat_streams.py BASE TOKEN MODEL concurrent N  N streams at once: how many end with done, first-event and
                                                 whole-stream latency, and the largest gap between two events
  chat_streams.py UPSTREAM - MODEL direct N      as first, straight to an OpenAI-compatible upstream's
                                                 /v1/chat/completions (the gateway's baseline)
  A last argument "p50" makes first and direct print only the first event's p50 in milliseconds.
"""
import asyncio
import json
import sys
import time
from urllib.parse import urlparse


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100.0 * (len(ordered) - 1))))]


def ms(seconds):
    return "%.1f ms" % (seconds * 1000)


def main():
    base, token, model, mode, count = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
    if mode in ("first", "direct"):
        results = [asyncio.run(concurrent(base, token, model, "hello there, how are you today", 1,
                                          direct=mode == "direct"))[0]
                   for _ in range(count)]
        firsts = [r[1] for r in results if r[0] == 200]
        ends = [r[2] for r in results if r[0] == 200]
        if sys.argv[-1] == "p50":
            print("%.2f" % (percentile(firsts, 50) * 1000))
            return
        print("streams %d, ok %d; first event p50 %s p90 %s p99 %s max %s; whole stream p50 %s" % (
            count, len(firsts), ms(percentile(firsts, 50)), ms(percentile(firsts, 90)), ms(percentile(firsts, 99)),
            ms(max(firsts)), ms(percentile(ends, 50))))
        return
    message = " ".join(["streaming"] * 100)
    started = time.perf_counter()
    results = asyncio.run(concurrent(base, token, model, message, count))
    elapsed = time.perf_counter() - started
    done = [r for r in results if r[5]]
    statuses = {}
    for r in results:
        statuses[r[0]] = statuses.get(r[0], 0) + 1
    line = "concurrent %d: done %d, statuses %s, wall %.1f s" % (count, len(done), statuses, elapsed)
    if done:
        line += "; first event p50 %s p99 %s; whole stream p50 %s p99 %s; largest gap between events p99 %s" % (
            ms(percentile([r[1] for r in done], 50)), ms(percentile([r[1] for r in done], 99)),
            ms(percentile([r[2] for r in done], 50)), ms(percentile([r[2] for r in done], 99)),
            ms(percentile([r[4] for r in done], 99)))
    print(line)


async def concurrent(base, token, model, message, count, direct=False):
    """COUNT streams at once on one event loop (threads would make the client, not the server, the bottleneck)."""
    url = urlparse(base)
    if direct:
        body = json.dumps({"model": model, "stream": True,
                           "messages": [{"role": "user", "content": message}]}).encode()
        head = ("POST /v1/chat/completions HTTP/1.1\r\nHost: %s:%d\r\n"
                "Content-Type: application/json\r\nAccept: text/event-stream\r\nConnection: close\r\n"
                "Content-Length: %d\r\n\r\n" % (url.hostname, url.port, len(body))).encode()
    else:
        body = json.dumps({"message": message, "model": model}).encode()
        head = ("POST /api/chat/stream HTTP/1.1\r\nHost: %s:%d\r\nAuthorization: Bearer %s\r\n"
                "Content-Type: application/json\r\nAccept: text/event-stream\r\nConnection: close\r\n"
                "Content-Length: %d\r\n\r\n" % (url.hostname, url.port, token, len(body))).encode()

    async def one():
        try:
            reader, writer = await asyncio.open_connection(url.hostname, url.port, limit=1 << 20)
        except OSError as e:
            return ("connect " + type(e).__name__, None, None, 0, None, False)
        started = time.perf_counter()
        try:
            writer.write(head + body)
            await writer.drain()
            status = int((await reader.readline()).split()[1])
            chunked = False
            while True:
                header = await reader.readline()
                if header in (b"\r\n", b""):
                    break
                if header.lower().startswith(b"transfer-encoding:") and b"chunked" in header.lower():
                    chunked = True
            if status != 200:
                return (status, None, None, 0, None, False)
            pending = b""
            first = None
            last = started
            gap = 0.0
            events = 0
            while True:
                if chunked:
                    size = int((await reader.readline()).strip() or b"0", 16)
                    if size == 0:
                        break
                    data = await reader.readexactly(size + 2)
                    pending += data[:-2]
                else:
                    data = await reader.read(65536)
                    if not data:
                        break
                    pending += data
                while b"\n\n" in pending:
                    event, pending = pending.split(b"\n\n", 1)
                    payload = b"".join(l[5:] for l in event.split(b"\n") if l.startswith(b"data:"))
                    if not payload:
                        continue
                    now = time.perf_counter()
                    if first is None:
                        first = now - started
                    else:
                        gap = max(gap, now - last)
                    last = now
                    events += 1
                    if payload.strip() == b"[DONE]" or json.loads(payload).get("type") == "done":
                        return (200, first, now - started, events, gap, True)
            return (200, first, time.perf_counter() - started, events, gap, False)
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as e:
            return ("error " + type(e).__name__, None, None, 0, None, False)
        finally:
            writer.close()

    return await asyncio.gather(*(one() for _ in range(count)))


if __name__ == "__main__":
    main()
