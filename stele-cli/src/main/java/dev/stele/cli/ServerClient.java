package dev.stele.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stele.repo.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.CharBuffer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLHandshakeException;

/**
 * A logged-in session with a repository server (docs/server.md): one login, then GET requests with
 * the bearer token. Every refusal becomes one line: a wrong password exits 3, a missing object 4.
 */
final class ServerClient {
  private final HttpClient http;
  private final URI base;
  private final ServerTrust trust;
  private final String token;

  private ServerClient(HttpClient http, URI base, ServerTrust trust, String token) {
    this.http = http;
    this.base = base;
    this.trust = trust;
    this.token = token;
  }

  /** Logs in to the server at {@code base} ({@code https://host:port}) as {@code user}. */
  static ServerClient login(URI base, ServerTrust trust, String user, char[] password)
      throws IOException {
    HttpClient http =
        HttpClient.newBuilder()
            .sslContext(trust.context)
            .connectTimeout(Duration.ofSeconds(30))
            .build();
    Map<String, String> body = new LinkedHashMap<>();
    body.put("user", user);
    body.put("password", CharBuffer.wrap(password).toString());
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve("/api/v1/login"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(Json.write(body)))
            .build();
    HttpResponse<byte[]> r = send(http, base, trust, request);
    check(r);
    String token = Json.MAPPER.readTree(r.body()).path("token").asText();
    return new ServerClient(http, base, trust, token);
  }

  /** The JSON answer of GET {@code path} (already encoded). */
  JsonNode json(String path) throws IOException {
    return Json.MAPPER.readTree(get(path));
  }

  /** The body of GET {@code path} (already encoded), which must answer 200. */
  byte[] get(String path) throws IOException {
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve(path))
            .header("Authorization", "Bearer " + token)
            .GET()
            .build();
    HttpResponse<byte[]> r = send(http, base, trust, request);
    check(r);
    return r.body();
  }

  /** The body of POST {@code path} with {@code body} as JSON, which must answer 200. */
  byte[] post(String path, Object body) throws IOException {
    HttpResponse<byte[]> r = send(http, base, trust, postRequest(path, body));
    check(r);
    return r.body();
  }

  /**
   * The body of POST {@code path} with {@code body} as JSON, to be read as it arrives; the caller
   * closes it. A refusal is one line, as for {@link #get}.
   */
  InputStream postStream(String path, Object body) throws IOException {
    HttpResponse<InputStream> r =
        send(http, base, trust, postRequest(path, body), HttpResponse.BodyHandlers.ofInputStream());
    if (r.statusCode() != 200) {
      byte[] error;
      try (InputStream in = r.body()) {
        error = in.readNBytes(64 << 10);
      }
      check(r.statusCode(), error);
    }
    return r.body();
  }

  private HttpRequest postRequest(String path, Object body) throws IOException {
    return HttpRequest.newBuilder(base.resolve(path))
        .header("Authorization", "Bearer " + token)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(Json.write(body)))
        .build();
  }

  /** What writes a request's body. */
  interface Body {
    void write(OutputStream out) throws IOException;
  }

  /**
   * The JSON answer of POST {@code path} with a body streamed as {@code body} writes it, in a
   * thread of its own: nothing of it is held here. An error writing the body (a file unreadable) is
   * thrown rather than the server's answer to the part it got; the writer stops once the server has
   * answered.
   */
  JsonNode upload(String path, String type, Body body) throws IOException {
    PipedInputStream in = new PipedInputStream(1 << 20);
    PipedOutputStream out = new PipedOutputStream(in);
    AtomicReference<IOException> failed = new AtomicReference<>();
    AtomicBoolean answered = new AtomicBoolean();
    Thread writer =
        new Thread(
            () -> {
              try (out) {
                body.write(out);
              } catch (IOException e) {
                if (!answered.get()) {
                  failed.set(e);
                }
              }
            },
            "stele-upload");
    writer.setDaemon(true);
    writer.start();
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve(path))
            .header("Authorization", "Bearer " + token)
            .header("Content-Type", type)
            .POST(HttpRequest.BodyPublishers.ofInputStream(() -> in))
            .build();
    HttpResponse<byte[]> r = send(http, base, trust, request);
    answered.set(true);
    in.close();
    try {
      writer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted");
    }
    if (failed.get() != null) {
      throw failed.get();
    }
    check(r);
    return Json.MAPPER.readTree(r.body());
  }

  /** Ends the session on the server; a failure to reach it only leaves the session to expire. */
  void logout() {
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve("/api/v1/logout"))
            .header("Authorization", "Bearer " + token)
            .POST(HttpRequest.BodyPublishers.noBody())
            .build();
    try {
      http.send(request, HttpResponse.BodyHandlers.discarding());
    } catch (IOException e) {
      // It expires by itself.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static HttpResponse<byte[]> send(
      HttpClient http, URI base, ServerTrust trust, HttpRequest request) throws IOException {
    return send(http, base, trust, request, HttpResponse.BodyHandlers.ofByteArray());
  }

  private static <T> HttpResponse<T> send(
      HttpClient http,
      URI base,
      ServerTrust trust,
      HttpRequest request,
      HttpResponse.BodyHandler<T> body)
      throws IOException {
    try {
      return http.send(request, body);
    } catch (SSLHandshakeException e) {
      String seen = trust.refused.get();
      if (seen != null) {
        throw new CliException(
            ExitCode.ERROR,
            "server "
                + base.getAuthority()
                + " presented certificate "
                + seen
                + ", not the pinned "
                + trust.pin
                + ": refused",
            e);
      }
      throw new CliException(
          ExitCode.ERROR, "TLS with " + base.getAuthority() + " failed: " + e.getMessage(), e);
    } catch (ConnectException e) {
      throw new CliException(ExitCode.ERROR, "cannot connect to " + base.getAuthority(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted");
    }
  }

  private static void check(HttpResponse<byte[]> r) {
    check(r.statusCode(), r.body());
  }

  private static void check(int status, byte[] body) {
    if (status == 200) {
      return;
    }
    int exit =
        switch (status) {
          case 401 -> ExitCode.WRONG_PASSWORD;
          case 404 -> ExitCode.NOT_FOUND;
          case 400 -> ExitCode.USAGE;
          default -> ExitCode.ERROR;
        };
    throw new CliException(exit, "server: " + error(status, body));
  }

  private static String error(int status, byte[] body) {
    try {
      String e = Json.MAPPER.readTree(body).path("error").asText("");
      return e.isEmpty() ? "HTTP " + status : e;
    } catch (IOException e) {
      return "HTTP " + status;
    }
  }
}
