package dev.stele.operator.kube;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.RuntimeInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.TreeSet;

/**
 * The probes of a process running reconcilers (operator, node agent), on its HTTP server. {@code
 * /healthz} (liveness): 200 while the process serves HTTP at all; a process whose API server is
 * away stays alive and waits for it rather than being restarted. {@code /readyz} (readiness): 200
 * once the operator has started and every informer is running, synced and watching, as
 * java-operator-sdk's runtime information reports it; 503 with the unhealthy ones otherwise. A
 * replica that is not the leader syncs its informers too, so it is ready: it takes over at once.
 */
public final class HealthEndpoints {
  private HealthEndpoints() {}

  /** Adds {@code /healthz} and {@code /readyz} for {@code operator} to {@code server}. */
  public static void add(HttpServer server, Operator operator) {
    server.createContext("/healthz", exchange -> answer(exchange, 200, "ok"));
    server.createContext(
        "/readyz",
        exchange -> {
          RuntimeInfo info = operator.getRuntimeInfo();
          if (!info.isStarted()) {
            answer(exchange, 503, "starting");
          } else if (!info.allEventSourcesAreHealthy()) {
            var unhealthy = new TreeSet<String>();
            info.unhealthyEventSources()
                .forEach(
                    (controller, sources) ->
                        sources.keySet().forEach(s -> unhealthy.add(controller + "/" + s)));
            answer(exchange, 503, "not synced: " + String.join(", ", unhealthy));
          } else {
            answer(exchange, 200, "ready");
          }
        });
  }

  static void answer(HttpExchange exchange, int code, String text) throws IOException {
    byte[] body = (text + "\n").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(code, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
