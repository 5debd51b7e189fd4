package dev.stele.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Answers, on loopback, the requests Stele's S3 store makes of one versioned bucket with object
 * lock, as Ceph RGW answers them: enough for the commands to run their whole path through the
 * store's S3 client (requests, signing, the JDK's HTTP client, the XML answers) while the build
 * records which classes the remote class-data-sharing archive holds ({@link TrainingCommand}).
 * Without it that path was loaded from the jars at every start of an S3 command (with the AWS SDK,
 * some 650 classes, a tenth of a check's time).
 *
 * <p>Not an S3 server: one bucket, path-style, no authentication, no multipart upload, retention
 * kept but never enforced. {@code TrainingCommandTest} checks that the commands trained on succeed
 * against it, so that it follows the store.
 *
 * <p>Concurrency: requests are answered one at a time.
 */
final class LockBucketImitation implements AutoCloseable {
  private static final DateTimeFormatter HTTP_DATE =
      DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);
  private static final Pattern RETENTION =
      Pattern.compile("<Mode>(\\w+)</Mode>\\s*<RetainUntilDate>([^<]+)</RetainUntilDate>");

  @SuppressWarnings("ArrayRecordComponent") // equals would be identity on the array: never compared
  private record Version(
      String id, byte[] data, String md5, Instant modified, String mode, String until) {}

  private final String bucket;
  private final HttpServer server;
  private final Map<String, List<Version>> objects = new TreeMap<>();
  private int versions;

  LockBucketImitation(String bucket) throws IOException {
    this.bucket = bucket;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          try {
            answer(exchange);
          } catch (RuntimeException e) {
            // a request this imitation does not know: the command fails, and the test says so
            send(exchange, 501, "application/xml", error("NotImplemented"));
          } finally {
            exchange.close();
          }
        });
    server.start();
  }

  URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private synchronized void answer(HttpExchange exchange) throws IOException {
    String method = exchange.getRequestMethod();
    String path = exchange.getRequestURI().getRawPath();
    Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
    String prefix = "/" + bucket;
    if (!path.startsWith(prefix)) {
      send(exchange, 404, "application/xml", error("NoSuchBucket"));
      return;
    }
    String key = decode(path.substring(prefix.length()).replaceFirst("^/", ""));
    byte[] body = exchange.getRequestBody().readAllBytes();
    if (key.isEmpty()) {
      bucketRequest(exchange, method, query);
    } else if (query.containsKey("retention")) {
      retention(exchange, method, key, query.get("versionId"), body);
    } else if (method.equals("PUT")) {
      put(exchange, key, body);
    } else if (method.equals("GET") || method.equals("HEAD")) {
      get(exchange, key, method.equals("HEAD"));
    } else {
      throw new IllegalArgumentException(method);
    }
  }

  private void bucketRequest(HttpExchange exchange, String method, Map<String, String> query)
      throws IOException {
    if (!method.equals("GET")) {
      throw new IllegalArgumentException(method);
    }
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    String prefix = query.getOrDefault("prefix", "");
    if (query.containsKey("versioning")) {
      xml.append("<VersioningConfiguration><Status>Enabled</Status></VersioningConfiguration>");
    } else if (query.containsKey("object-lock")) {
      xml.append("<ObjectLockConfiguration><ObjectLockEnabled>Enabled</ObjectLockEnabled>")
          .append("</ObjectLockConfiguration>");
    } else if (query.containsKey("versions")) {
      xml.append("<ListVersionsResult><Name>").append(bucket).append("</Name><Prefix>");
      xml.append(escape(prefix)).append("</Prefix><IsTruncated>false</IsTruncated>");
      objects.forEach(
          (key, all) -> {
            if (key.startsWith(prefix)) {
              for (int i = 0; i < all.size(); i++) {
                Version v = all.get(i);
                xml.append("<Version><Key>").append(escape(key)).append("</Key><VersionId>");
                xml.append(v.id()).append("</VersionId><IsLatest>");
                xml.append(i == all.size() - 1).append("</IsLatest>");
                entry(xml, v);
                xml.append("</Version>");
              }
            }
          });
      xml.append("</ListVersionsResult>");
    } else if ("2".equals(query.get("list-type"))) {
      xml.append("<ListBucketResult><Name>").append(bucket).append("</Name><Prefix>");
      xml.append(escape(prefix)).append("</Prefix><IsTruncated>false</IsTruncated>");
      int count = 0;
      for (Map.Entry<String, List<Version>> e : objects.entrySet()) {
        if (e.getKey().startsWith(prefix)) {
          xml.append("<Contents><Key>").append(escape(e.getKey())).append("</Key>");
          entry(xml, latest(e.getKey()));
          xml.append("</Contents>");
          count++;
        }
      }
      xml.append("<KeyCount>").append(count).append("</KeyCount></ListBucketResult>");
    } else {
      throw new IllegalArgumentException(query.toString());
    }
    send(exchange, 200, "application/xml", xml.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static void entry(StringBuilder xml, Version v) {
    xml.append("<LastModified>").append(v.modified()).append("</LastModified><ETag>&quot;");
    xml.append(v.md5()).append("&quot;</ETag><Size>").append(v.data().length);
    xml.append("</Size><StorageClass>STANDARD</StorageClass>");
  }

  private void put(HttpExchange exchange, String key, byte[] body) throws IOException {
    var headers = exchange.getRequestHeaders();
    String md5 = HexFormat.of().formatHex(md5(body));
    Version v =
        new Version(
            "v" + ++versions,
            body,
            md5,
            Instant.now(),
            headers.getFirst("x-amz-object-lock-mode"),
            headers.getFirst("x-amz-object-lock-retain-until-date"));
    objects.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
    exchange.getResponseHeaders().add("ETag", "\"" + md5 + "\"");
    exchange.getResponseHeaders().add("x-amz-version-id", v.id());
    send(exchange, 200, null, new byte[0]);
  }

  private void get(HttpExchange exchange, String key, boolean head) throws IOException {
    Version v = latest(key);
    if (v == null) {
      send(exchange, 404, "application/xml", head ? new byte[0] : error("NoSuchKey"));
      return;
    }
    var headers = exchange.getResponseHeaders();
    headers.add("ETag", "\"" + v.md5() + "\"");
    headers.add("x-amz-version-id", v.id());
    headers.add("Last-Modified", HTTP_DATE.format(v.modified()));
    headers.add("x-amz-meta-stele-md5", v.md5());
    if (v.mode() != null) {
      headers.add("x-amz-object-lock-mode", v.mode());
      headers.add("x-amz-object-lock-retain-until-date", v.until());
    }
    byte[] data = v.data();
    String range = exchange.getRequestHeaders().getFirst("Range");
    if (head) {
      headers.add("Content-Length", Integer.toString(data.length));
      exchange.sendResponseHeaders(200, -1);
    } else if (range != null) {
      Matcher m = Pattern.compile("bytes=(\\d+)-(\\d+)").matcher(range);
      if (!m.matches()) {
        throw new IllegalArgumentException(range);
      }
      int from = Integer.parseInt(m.group(1));
      int to = Math.min(Integer.parseInt(m.group(2)), data.length - 1);
      headers.add("Content-Range", "bytes " + from + "-" + to + "/" + data.length);
      byte[] part = new byte[to - from + 1];
      System.arraycopy(data, from, part, 0, part.length);
      send(exchange, 206, "application/octet-stream", part);
    } else {
      send(exchange, 200, "application/octet-stream", data);
    }
  }

  private void retention(
      HttpExchange exchange, String method, String key, String versionId, byte[] body)
      throws IOException {
    List<Version> all = objects.getOrDefault(key, List.of());
    int i = 0;
    while (i < all.size() && !all.get(i).id().equals(versionId)) {
      i++;
    }
    if (i == all.size()) {
      send(exchange, 404, "application/xml", error("NoSuchVersion"));
      return;
    }
    Version v = all.get(i);
    if (method.equals("PUT")) {
      Matcher m = RETENTION.matcher(new String(body, StandardCharsets.UTF_8));
      if (!m.find()) {
        throw new IllegalArgumentException("retention body");
      }
      all.set(i, new Version(v.id(), v.data(), v.md5(), v.modified(), m.group(1), m.group(2)));
      send(exchange, 200, null, new byte[0]);
    } else {
      String xml =
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Retention><Mode>"
              + v.mode()
              + "</Mode><RetainUntilDate>"
              + v.until()
              + "</RetainUntilDate></Retention>";
      send(exchange, 200, "application/xml", xml.getBytes(StandardCharsets.UTF_8));
    }
  }

  private Version latest(String key) {
    List<Version> all = objects.get(key);
    return all == null ? null : all.get(all.size() - 1);
  }

  private static void send(HttpExchange exchange, int status, String type, byte[] body)
      throws IOException {
    if (type != null) {
      exchange.getResponseHeaders().add("Content-Type", type);
    }
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private static byte[] error(String code) {
    return ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
            + code
            + "</Code><Message></Message></Error>")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> query = new HashMap<>();
    if (raw != null) {
      for (String pair : raw.split("&", -1)) {
        int eq = pair.indexOf('=');
        query.put(
            decode(eq < 0 ? pair : pair.substring(0, eq)),
            eq < 0 ? "" : decode(pair.substring(eq + 1)));
      }
    }
    return query;
  }

  private static String decode(String s) {
    return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static byte[] md5(byte[] data) {
    try {
      return MessageDigest.getInstance("MD5").digest(data);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
