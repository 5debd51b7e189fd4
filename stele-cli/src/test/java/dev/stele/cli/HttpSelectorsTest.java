package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class HttpSelectorsTest {
  @Test
  void theSelectorOfAClientNoLongerUsedEndsAtOnce() throws Exception {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    try {
      assertThat(get(server.getAddress().getPort())).isEqualTo("ok");
      // Left alone, the client's selector thread stays in epoll_wait for seconds after this.
      List<Thread> selectors = HttpSelectors.alive();
      assertThat(selectors).isNotEmpty();

      assertThat(HttpSelectors.stop()).isEqualTo(selectors.size());

      for (Thread t : selectors) {
        t.join(1_000); // a margin for a busy machine; left alone it would be seconds, or never
        assertThat(t.isAlive()).as(t.getName()).isFalse();
      }
    } finally {
      server.stop(0);
    }
  }

  /** One request through a client that nothing references once this returns. */
  private static String get(int port) throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    return client
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
