"""An OpenAI-compatible model server for benchmarks: POST /v1/chat/completions, streamed as SSE chunks.

It answers with WORDS words, one every DELAY_MS milliseconds (both from the environment), the first one at once,
and the usage in the last chunk, as the OpenAI API does with stream=true. Non-streamed calls get the whole answer.
"""
import json
import os
import socket
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

WORDS = int(os.environ.get("WORDS", "20"))
DELAY = int(os.environ.get("DELAY_MS", "20")) / 1000.0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        # as real API front ends do: without it Nagle's algorithm and delayed ACKs hold the first chunk 40 ms
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        model = request.get("model", "bench")
        words = ["word%d " % i for i in range(WORDS)]
        usage = {"prompt_tokens": 8, "completion_tokens": WORDS, "total_tokens": 8 + WORDS}
        if not request.get("stream"):
            body = json.dumps({"id": "bench", "object": "chat.completion", "model": model, "usage": usage,
                               "choices": [{"index": 0, "finish_reason": "stop",
                                            "message": {"role": "assistant", "content": "".join(words)}}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for i, word in enumerate(words):
                if i:
                    time.sleep(DELAY)
                self.chunk({"id": "bench", "object": "chat.completion.chunk", "model": model,
                            "choices": [{"index": 0, "delta": {"content": word}}]})
            self.chunk({"id": "bench", "object": "chat.completion.chunk", "model": model, "choices": [],
                        "usage": usage})
            self.chunk("[DONE]")
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass

    def chunk(self, data):
        payload = ("data: " + (data if isinstance(data, str) else json.dumps(data)) + "\n\n").encode()
        self.wfile.write(b"%x\r\n%s\r\n" % (len(payload), payload))
        self.wfile.flush()


if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.daemon_threads = True
    server.serve_forever()
