package dev.stele.s3;

import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;
import org.jspecify.annotations.Nullable;

/**
 * Signed HTTP requests to one bucket: the whole of Stele's S3 client below {@link S3Api}. Each
 * request is signed with SigV4 ({@link SigV4}) and sent over the JDK's {@link HttpURLConnection},
 * which keeps connections alive between requests. It never retries by itself: a request body is
 * always streamed, and the JDK resends only requests it can replay, so a PUT is sent once per call;
 * what is retried, and how, is {@link S3Api}'s and the store's choice.
 *
 * <p>Why not the AWS SDK: on a command line the SDK's start (some 2,200 classes with its HTTP
 * client) cost 0.4–0.5 s and 50 MiB of every S3 command; see docs/s3.md, "The client".
 *
 * <p>Concurrency: safe for many threads.
 */
final class S3Http {
  /** What tests see of each attempt, and where they inject faults. */
  interface Tap {
    /**
     * Before sending: the request to send instead (a test's server that drops headers), or this
     * one; may throw an {@link S3Failure} to fail the attempt unsent.
     */
    default Request sending(Request request) {
      return request;
    }

    /** After the answer's status arrived; may throw to lose the answer. */
    default void answered(Request request, int status) {}

    /** The answer's body as the caller will read it. */
    default InputStream body(Request request, InputStream body) {
      return body;
    }
  }

  /**
   * One request: {@code operation} names it as S3's API does ({@code GetObject}), for messages and
   * taps; {@code key} null addresses the bucket itself.
   */
  record Request(
      String operation,
      String method,
      @Nullable String key,
      SortedMap<String, String> query,
      Map<String, String> headers,
      @Nullable Body body) {
    Request {
      query = new TreeMap<>(query);
      headers = Map.copyOf(headers);
    }
  }

  /** A request's content: its length, and its bytes as often as asked for. */
  interface Body {
    long length();

    InputStream open() throws IOException;

    static Body of(byte[] data) {
      return new Body() {
        @Override
        public long length() {
          return data.length;
        }

        @Override
        public InputStream open() {
          return new ByteArrayInputStream(data);
        }
      };
    }

    static Body of(Path file) throws IOException {
      long length = Files.size(file);
      return new Body() {
        @Override
        public long length() {
          return length;
        }

        @Override
        public InputStream open() throws IOException {
          return Files.newInputStream(file);
        }
      };
    }
  }

  /** An answer with a 2xx status; close it, or {@link #abort} it to drop the connection. */
  static final class Response implements Closeable {
    private final HttpURLConnection connection;
    private final InputStream body;

    private Response(HttpURLConnection connection, InputStream body) {
      this.connection = connection;
      this.body = body;
    }

    /** A header's first value, or null. */
    @Nullable String header(String name) {
      return connection.getHeaderField(name);
    }

    /** The {@code x-amz-meta-} headers, names in lower case without the prefix. */
    Map<String, String> metadata() {
      Map<String, String> metadata = new TreeMap<>();
      connection
          .getHeaderFields()
          .forEach(
              (name, values) -> {
                if (name != null
                    && name.toLowerCase(Locale.ROOT).startsWith("x-amz-meta-")
                    && !values.isEmpty()) {
                  metadata.put(name.substring(11).toLowerCase(Locale.ROOT), values.get(0));
                }
              });
      return metadata;
    }

    /** Content-Length, or -1. */
    long length() {
      return connection.getContentLengthLong();
    }

    InputStream body() {
      return body;
    }

    /** The whole body as text. */
    String text() {
      try (InputStream in = body) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw S3Failure.noAnswer("reading the answer", e);
      }
    }

    /** Drops the connection rather than read the rest of the body off it. */
    void abort() {
      connection.disconnect();
    }

    @Override
    public void close() {
      try {
        body.close();
      } catch (IOException ignored) {
        connection.disconnect();
      }
    }
  }

  private final URI base;
  private final String bucket;
  private final boolean pathStyle;
  private final String region;
  private final Supplier<AwsKeys> credentials;
  private final @Nullable SSLSocketFactory tls;
  private final @Nullable Proxy proxy;
  private final List<Tap> taps;

  private S3Http(
      URI base,
      String bucket,
      boolean pathStyle,
      String region,
      Supplier<AwsKeys> credentials,
      @Nullable SSLSocketFactory tls,
      @Nullable Proxy proxy,
      List<Tap> taps) {
    this.base = base;
    this.bucket = bucket;
    this.pathStyle = pathStyle;
    this.region = region;
    this.credentials = credentials;
    this.tls = tls;
    this.proxy = proxy;
    this.taps = List.copyOf(taps);
  }

  /**
   * A client for {@code location}'s bucket, signing for {@code region} with {@code credentials}.
   */
  static S3Http connect(
      S3Location location, String region, Supplier<AwsKeys> credentials, List<Tap> taps)
      throws IOException {
    URI endpoint = location.endpoint();
    URI base =
        endpoint != null
            ? endpoint
            : URI.create(
                "https://s3."
                    + region
                    + ".amazonaws.com"
                    + (region.startsWith("cn-") ? ".cn" : ""));
    SSLSocketFactory tls = location.caCert() == null ? null : tls(location.caCert());
    // An address cannot carry the bucket in its name: there the path must.
    boolean address = base.getHost() != null && base.getHost().matches("[0-9.]+|\\[.*\\]");
    return new S3Http(
        base,
        location.bucket(),
        location.pathStyle() || address,
        region,
        credentials,
        tls,
        Proxies.of(base, System.getenv()),
        taps);
  }

  /** Sends {@code request}; a status other than 2xx is an {@link S3Failure}. */
  Response send(Request asked) {
    Request request = asked;
    for (Tap tap : taps) {
      request = tap.sending(request);
    }
    HttpURLConnection connection = open(request);
    int status;
    try {
      if (request.body() != null) {
        try (InputStream in = request.body().open();
            OutputStream out = connection.getOutputStream()) {
          in.transferTo(out);
        } catch (IOException e) {
          // The server may have answered (and closed) before taking the whole body: its answer,
          // if one came, says more than the broken pipe.
          int answered = statusAfterBrokenBody(connection, request, e);
          if (answered / 100 == 2) {
            connection.disconnect();
            throw S3Failure.noAnswer(describe(request), e); // an answer to half a body: unknown
          }
          throw failure(connection, request, answered);
        }
      }
      status = connection.getResponseCode();
    } catch (IOException e) {
      connection.disconnect();
      throw S3Failure.noAnswer(describe(request), e);
    }
    for (Tap tap : taps) {
      try {
        tap.answered(request, status);
      } catch (RuntimeException e) {
        connection.disconnect();
        throw e;
      }
    }
    if (status / 100 != 2) {
      throw failure(connection, request, status);
    }
    InputStream body;
    try {
      body = connection.getInputStream();
    } catch (IOException e) {
      connection.disconnect();
      throw S3Failure.noAnswer(describe(request), e);
    }
    for (Tap tap : taps) {
      body = tap.body(request, body);
    }
    return new Response(connection, body);
  }

  private static int statusAfterBrokenBody(
      HttpURLConnection connection, Request request, IOException broken) {
    try {
      return connection.getResponseCode();
    } catch (IOException e) {
      connection.disconnect();
      broken.addSuppressed(e);
      throw S3Failure.noAnswer(describe(request), broken);
    }
  }

  /** The failure that an answer with {@code status} says, from its error document if it has one. */
  private static S3Failure failure(HttpURLConnection connection, Request request, int status) {
    String code = null;
    String message = connection.getHeaderField(null);
    String requestId = connection.getHeaderField("x-amz-request-id");
    try (InputStream error = connection.getErrorStream()) {
      if (error != null) {
        String document = new String(error.readAllBytes(), StandardCharsets.UTF_8).strip();
        if (document.startsWith("<")) {
          Xml xml = Xml.parse(document);
          code = xml.text("Code");
          String text = xml.text("Message");
          message = text != null && !text.isEmpty() ? text : code;
          if (requestId == null) {
            requestId = xml.text("RequestId");
          }
        }
      }
    } catch (IOException | IllegalArgumentException e) {
      connection.disconnect();
    }
    return new S3Failure(
        status,
        code,
        (message == null ? "HTTP " + status : message)
            + " ("
            + describe(request)
            + (requestId == null ? "" : ", request id " + requestId)
            + ")",
        null);
  }

  private static String describe(Request request) {
    return request.operation() + (request.key() == null ? "" : " " + request.key());
  }

  /** Where a request goes: its URL, the {@code Host} it is signed with, its encoded path. */
  record Target(String url, String host, String path) {}

  /**
   * The target of a request for {@code key} (null: the bucket) with {@code query}: the bucket in
   * the path for path-style addressing, else in the host name.
   */
  Target target(@Nullable String key, SortedMap<String, String> query) {
    String host = base.getHost();
    String path = base.getRawPath() == null ? "" : base.getRawPath().replaceAll("/+$", "");
    if (pathStyle) {
      path += "/" + bucket;
    } else {
      host = bucket + "." + host;
    }
    if (key != null) {
      path += "/" + SigV4.encode(key, false);
    } else if (path.isEmpty()) {
      path = "/";
    }
    int port = base.getPort();
    boolean https = "https".equalsIgnoreCase(base.getScheme());
    String canonicalQuery = SigV4.canonicalQuery(query);
    return new Target(
        base.getScheme()
            + "://"
            + host
            + (port == -1 ? "" : ":" + port)
            + path
            + (canonicalQuery.isEmpty() ? "" : "?" + canonicalQuery),
        host + (port != -1 && port != (https ? 443 : 80) ? ":" + port : ""),
        path);
  }

  private HttpURLConnection open(Request request) {
    Target target = target(request.key(), request.query());
    boolean https = "https".equalsIgnoreCase(base.getScheme());
    String payloadHash = payloadHash(request.body(), https);
    String stamp = SigV4.stamp(Instant.now());
    AwsKeys keys = credentials.get();
    SortedMap<String, String> signed = new TreeMap<>();
    request.headers().forEach((name, value) -> signed.put(name.toLowerCase(Locale.ROOT), value));
    signed.put("host", target.host());
    signed.put("x-amz-date", stamp);
    signed.put("x-amz-content-sha256", payloadHash);
    if (keys.sessionToken() != null) {
      signed.put("x-amz-security-token", keys.sessionToken());
    }
    String authorization =
        SigV4.authorization(
            keys, region, request.method(), target.path(), request.query(), signed, payloadHash);
    try {
      URL url = new URL(target.url());
      HttpURLConnection connection =
          (HttpURLConnection) (proxy == null ? url.openConnection() : url.openConnection(proxy));
      if (tls != null && connection instanceof HttpsURLConnection secure) {
        secure.setSSLSocketFactory(tls);
      }
      connection.setConnectTimeout(10_000);
      connection.setReadTimeout(60_000);
      connection.setInstanceFollowRedirects(false);
      connection.setUseCaches(false);
      connection.setRequestMethod(request.method());
      signed.forEach(
          (name, value) -> {
            if (!name.equals("host")) {
              connection.setRequestProperty(name, value);
            }
          });
      connection.setRequestProperty("Authorization", authorization);
      if (request.body() != null) {
        if (!signed.containsKey("content-type")) {
          // Else the JDK labels every body a form.
          connection.setRequestProperty("Content-Type", "application/octet-stream");
        }
        connection.setDoOutput(true);
        // Streamed, so that the JDK never sends it a second time on its own.
        connection.setFixedLengthStreamingMode(request.body().length());
      }
      return connection;
    } catch (IOException e) {
      throw S3Failure.noAnswer(describe(request), e);
    }
  }

  /**
   * SigV4's payload hash: over plain HTTP the body's SHA-256, so that what the server stores is
   * what was signed; over TLS, which protects the body on its way, {@code UNSIGNED-PAYLOAD}, as the
   * AWS SDK sends (Content-MD5 still guards it against corruption).
   */
  private static String payloadHash(@Nullable Body body, boolean https) {
    if (body == null || body.length() == 0) {
      return SigV4.EMPTY_PAYLOAD;
    }
    if (https) {
      return SigV4.UNSIGNED_PAYLOAD;
    }
    try {
      return SigV4.hex(Hashes.of("SHA-256", body));
    } catch (IOException e) {
      // A local file that cannot be read: no attempt would do better.
      throw new S3Failure(0, "UnreadableBody", "reading the body to send: " + e, e);
    }
  }

  private static SSLSocketFactory tls(Path caCert) throws IOException {
    try (InputStream in = Files.newInputStream(caCert)) {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (Certificate cert : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        store.setCertificateEntry("ca-" + i++, cert);
      }
      if (i == 0) {
        throw new IOException(caCert + ": no certificates in the file");
      }
      TrustManagerFactory factory =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      factory.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, factory.getTrustManagers(), null);
      return context.getSocketFactory();
    } catch (GeneralSecurityException e) {
      throw new IOException(caCert + ": not a PEM certificate file", e);
    }
  }
}
