package dev.stele.k8s.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * {@code GET /api/v1/namespaces/N/pods/P/exec?command=..&container=..&stdout=true&stderr=true},
 * answered as a real API server answers it: a pod that does not exist is 404, a container the pod
 * lacks (or none named in a pod of several) 400, a pod that has finished 400, all before any
 * upgrade; otherwise a WebSocket upgrade speaking the channel protocol ({@code v4.channel.k8s.io}):
 * each binary frame starts with its channel, 1 stdout, 2 stderr, 3 the Status the command ended
 * with, then the server closes the connection.
 *
 * <p>Concurrency: each command runs on a thread of this endpoint's executor (the WebSocket's
 * callbacks come on the server's event loop, which must not block); a connection the client closes
 * interrupts its command.
 */
final class ExecEndpoint implements AutoCloseable {
  private static final Pattern EXEC =
      Pattern.compile("^/api/v1/namespaces/([a-z0-9.-]+)/pods/([a-z0-9.-]+)/exec$");
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ExecutorService threads =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "api-server-exec");
            t.setDaemon(true);
            return t;
          });
  private final Map<WebSocket, Future<?>> running = new ConcurrentHashMap<>();
  private volatile ExecHandler handler = ExecEndpoint::notFound;

  void handler(ExecHandler handler) {
    this.handler = handler;
  }

  /** Whether {@code path} (without its query) is an exec request. */
  static boolean matches(String method, String path) {
    return (method.equals("GET") || method.equals("POST")) && EXEC.matcher(path).matches();
  }

  /**
   * The answer to an exec request on {@code bare}; {@code get} reads an object as the CRUD
   * dispatcher has it.
   */
  MockResponse answer(RecordedRequest request, String bare, Function<String, MockResponse> get) {
    Matcher m = EXEC.matcher(bare);
    if (!m.matches()) {
      throw new IllegalArgumentException(bare);
    }
    String namespace = m.group(1);
    String name = m.group(2);
    MockResponse found = get.apply("/api/v1/namespaces/" + namespace + "/pods/" + name);
    if (found.code() == 404) {
      return status(404, "NotFound", "pods \"" + name + "\" not found");
    }
    Pod pod = SERIALIZATION.unmarshal(found.getBody().readUtf8(), Pod.class);
    List<String> names = new ArrayList<>();
    for (Container c : pod.getSpec().getContainers()) {
      names.add(c.getName());
    }
    List<String> command = params(request.getPath(), "command");
    List<String> asked = params(request.getPath(), "container");
    String container;
    if (asked.isEmpty()) {
      if (names.size() != 1) {
        return status(
            400,
            "BadRequest",
            "a container name must be specified for pod "
                + name
                + ", choose one of: "
                + String.join(" ", names));
      }
      container = names.get(0);
    } else {
      container = asked.get(0);
    }
    if (!names.contains(container)) {
      return status(400, "BadRequest", "container " + container + " is not valid for pod " + name);
    }
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
      return status(
          400,
          "BadRequest",
          "cannot exec into a container in a completed pod; current phase is " + phase);
    }
    if (command.isEmpty()) {
      return status(400, "BadRequest", "you must specify at least 1 command");
    }
    return new MockResponse().withWebSocketUpgrade(new Session(pod, container, command));
  }

  @Override
  public void close() {
    threads.shutdownNow();
  }

  private final class Session extends WebSocketListener {
    private final Pod pod;
    private final String container;
    private final List<String> command;

    Session(Pod pod, String container, List<String> command) {
      this.pod = pod;
      this.container = container;
      this.command = List.copyOf(command);
    }

    @Override
    public void onOpen(WebSocket socket, Response response) {
      running.put(socket, threads.submit(() -> run(socket)));
    }

    @Override
    public void onClosing(WebSocket socket, int code, String reason) {
      stop(socket);
      socket.close(code, reason); // the close handshake's answer
    }

    @Override
    public void onClosed(WebSocket socket, int code, String reason) {
      stop(socket);
    }

    @Override
    public void onFailure(WebSocket socket, Throwable t, @Nullable Response response) {
      stop(socket);
    }

    private void stop(WebSocket socket) {
      Future<?> f = running.remove(socket);
      if (f != null) {
        f.cancel(true);
      }
    }

    private void run(WebSocket socket) {
      ExecResult result;
      try {
        result = handler.run(pod, container, command);
        if (!result.delay().isZero()) {
          Thread.sleep(result.delay().toMillis());
        }
      } catch (InterruptedException e) {
        return; // the client went away
      } catch (Exception e) {
        result = ExecResult.exit(1, String.valueOf(e.getMessage()));
      }
      send(socket, 1, result.stdout());
      send(socket, 2, result.stderr());
      send(socket, 3, exitStatus(result.exitCode()));
      socket.close(1000, "");
      running.remove(socket);
    }
  }

  /** What a command no handler knows does in a real container: exec fails, exit code 127. */
  private static ExecResult notFound(Pod pod, String container, List<String> command) {
    return ExecResult.exit(
        127, "exec: \"" + command.get(0) + "\": executable file not found in $PATH");
  }

  private static void send(WebSocket socket, int channel, String text) {
    if (channel != 3 && text.isEmpty()) {
      return;
    }
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    byte[] frame = new byte[bytes.length + 1];
    frame[0] = (byte) channel;
    System.arraycopy(bytes, 0, frame, 1, bytes.length);
    socket.send(frame);
  }

  /** The Status a real server sends on channel 3 when the command has ended. */
  static String exitStatus(int code) {
    ObjectNode status = JSON.createObjectNode();
    status.putObject("metadata");
    if (code == 0) {
      status.put("status", "Success");
      return status.toString();
    }
    status.put("status", "Failure");
    status.put(
        "message",
        "command terminated with non-zero exit code: error executing command, exit code " + code);
    status.put("reason", "NonZeroExitCode");
    ObjectNode cause = status.putObject("details").putArray("causes").addObject();
    cause.put("reason", "ExitCode");
    cause.put("message", Integer.toString(code));
    return status.toString();
  }

  private static MockResponse status(int code, String reason, String message) {
    ObjectNode status = JSON.createObjectNode();
    status.put("kind", "Status");
    status.put("apiVersion", "v1");
    status.putObject("metadata");
    status.put("status", "Failure");
    status.put("message", message);
    status.put("reason", reason);
    status.put("code", code);
    return new MockResponse()
        .setResponseCode(code)
        .addHeader("Content-Type", "application/json")
        .setBody(status.toString());
  }

  /** Every value of the query parameter {@code name}, decoded, in order. */
  private static List<String> params(String path, String name) {
    List<String> out = new ArrayList<>();
    int q = path.indexOf('?');
    if (q < 0) {
      return out;
    }
    for (String pair : path.substring(q + 1).split("&", -1)) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      if (key.equals(name)) {
        out.add(URLDecoder.decode(eq < 0 ? "" : pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return out;
  }
}
