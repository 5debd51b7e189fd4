package dev.stele.s3;

import dev.stele.blob.Retention;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The S3 operations the store uses, on one bucket, over {@link S3Http}: requests built and answers
 * parsed. Reads, listings and other idempotent requests are retried here ({@link S3Retries#call});
 * writes are sent once per call, and their callers decide about another attempt.
 *
 * <p>Concurrency: safe for many threads.
 */
final class S3Api {
  /** An object's metadata, from HEAD or GET. */
  record Head(
      long length,
      Instant lastModified,
      @Nullable String versionId,
      @Nullable String eTag,
      Map<String, String> metadata) {}

  /** One object of a listing. */
  record Listed(String key, long size, Instant lastModified) {}

  /** One version of a key, or a delete marker ({@code marker}), from a version listing. */
  record Version(
      String key,
      String versionId,
      boolean latest,
      Instant lastModified,
      long size,
      boolean marker) {}

  /** One page of a version listing. */
  record VersionPage(List<Version> versions, boolean truncated) {}

  /** A bucket's object lock configuration; {@code mode} null without a default rule. */
  record LockConfiguration(
      boolean enabled, @Nullable String mode, @Nullable Integer days, @Nullable Integer years) {}

  private final S3Http http;
  private final S3Retries retries;

  S3Api(S3Http http, S3Retries retries) {
    this.http = http;
    this.retries = retries;
  }

  /** The bucket's versioning status: Enabled, Suspended, or Off. */
  String versioning() throws IOException {
    Xml xml = bucketDocument("GetBucketVersioning", "versioning");
    String status = xml.text("Status");
    return status == null || status.isEmpty() ? "Off" : status;
  }

  LockConfiguration objectLock() throws IOException {
    Xml xml = bucketDocument("GetObjectLockConfiguration", "object-lock");
    Optional<Xml> rule = xml.child("Rule").flatMap(r -> r.child("DefaultRetention"));
    return new LockConfiguration(
        "Enabled".equals(xml.text("ObjectLockEnabled")),
        rule.map(r -> r.text("Mode")).orElse(null),
        rule.map(r -> r.text("Days")).map(Integer::valueOf).orElse(null),
        rule.map(r -> r.text("Years")).map(Integer::valueOf).orElse(null));
  }

  private Xml bucketDocument(String operation, String subresource) throws IOException {
    return document(request(operation, "GET", null).query(subresource, ""));
  }

  /** The XML answer to a read, retried. */
  private Xml document(Builder read) throws IOException {
    return retries.call(() -> parse(send(read).text()));
  }

  /** HEAD of the key's current version, or of {@code versionId}. */
  Head head(String key, @Nullable String versionId) throws IOException {
    return retries.call(
        () -> {
          try (S3Http.Response r =
              send(request("HeadObject", "HEAD", key).query("versionId", versionId))) {
            return headOf(r);
          }
        });
  }

  /**
   * GET of the key (its {@code versionId} if not null), of a {@code range} ({@code bytes=a-b}) if
   * not null, only if its ETag is {@code ifMatch} if not null; the caller reads and closes the
   * body. Retried until an answer starts, never after.
   */
  S3Http.Response get(
      String key, @Nullable String versionId, @Nullable String range, @Nullable String ifMatch)
      throws IOException {
    return retries.call(() -> send(getRequest(key, versionId, range, ifMatch)));
  }

  private static Builder getRequest(
      String key, @Nullable String versionId, @Nullable String range, @Nullable String ifMatch) {
    return request("GetObject", "GET", key)
        .query("versionId", versionId)
        .header("Range", range)
        .header("If-Match", ifMatch);
  }

  /** The whole object, retried also when its body breaks off. */
  byte[] getBytes(String key, @Nullable String versionId) throws IOException {
    return retries.call(
        () -> {
          try (S3Http.Response r = send(getRequest(key, versionId, null, null))) {
            long length = r.length();
            if (length < 0 || length > Integer.MAX_VALUE - 8) {
              return r.body().readAllBytes();
            }
            // Read straight into an array of the announced size, not gathered and copied.
            byte[] data = new byte[(int) length];
            int n = r.body().readNBytes(data, 0, data.length);
            if (n != data.length) {
              throw new EOFException("the body ended at byte " + n + " of " + data.length);
            }
            return data;
          } catch (IOException e) {
            throw S3Failure.noAnswer("GetObject " + key, e);
          }
        });
  }

  /**
   * Reads bytes {@code offset…offset+length-1} of the object into {@code target}, retried also when
   * the body breaks off.
   *
   * @return the bytes read, {@code length + 1} if the answer held more
   */
  int getRange(String key, @Nullable String versionId, long offset, int length, byte[] target)
      throws IOException {
    String range = "bytes=" + offset + "-" + (offset + length - 1);
    return retries.call(
        () -> {
          try (S3Http.Response r = send(getRequest(key, versionId, range, null))) {
            InputStream body = r.body();
            int n = body.readNBytes(target, 0, length);
            if (n == length && body.read() >= 0) {
              r.abort();
              return length + 1;
            }
            return n;
          } catch (IOException e) {
            throw S3Failure.noAnswer("GetObject " + key, e);
          }
        });
  }

  /** Every object under {@code prefix}, page after page. */
  List<Listed> list(String prefix) throws IOException {
    List<Listed> all = new ArrayList<>();
    String token = null;
    do {
      Xml page =
          document(
              request("ListObjectsV2", "GET", null)
                  .query("list-type", "2")
                  .query("prefix", prefix)
                  .query("continuation-token", token));
      for (Xml c : page.all("Contents")) {
        all.add(
            new Listed(
                required(c, "Key"),
                Long.parseLong(required(c, "Size")),
                instant(c.text("LastModified"))));
      }
      token = "true".equals(page.text("IsTruncated")) ? page.text("NextContinuationToken") : null;
    } while (token != null);
    return all;
  }

  /** One page of the versions and delete markers under {@code prefix}, in the server's order. */
  VersionPage versionPage(String prefix, int maxKeys) throws IOException {
    return versionPage(prefix, maxKeys, null, null);
  }

  /**
   * The versions and delete markers of exactly {@code key}, in the server's order (a listing by
   * prefix also names the keys that {@code key} begins).
   */
  List<Version> versionsOf(String key) throws IOException {
    List<Version> of = new ArrayList<>();
    for (Version v : versions(key)) {
      if (v.key().equals(key)) {
        of.add(v);
      }
    }
    return of;
  }

  /** Every version and delete marker under {@code prefix}, in the server's order. */
  List<Version> versions(String prefix) throws IOException {
    List<Version> all = new ArrayList<>();
    String keyMarker = null;
    String versionMarker = null;
    while (true) {
      VersionPage page = versionPage(prefix, 1000, keyMarker, versionMarker);
      all.addAll(page.versions());
      if (!page.truncated() || page.versions().isEmpty()) {
        return all;
      }
      Version last = page.versions().get(page.versions().size() - 1);
      keyMarker = last.key();
      versionMarker = last.versionId();
    }
  }

  private VersionPage versionPage(
      String prefix, int maxKeys, @Nullable String keyMarker, @Nullable String versionMarker)
      throws IOException {
    Xml page =
        document(
            request("ListObjectVersions", "GET", null)
                .query("versions", "")
                .query("prefix", prefix)
                .query("max-keys", Integer.toString(maxKeys))
                .query("key-marker", keyMarker)
                .query("version-id-marker", versionMarker));
    List<Version> versions = new ArrayList<>();
    for (Xml v : page.children()) {
      boolean marker = v.name().equals("DeleteMarker");
      if (marker || v.name().equals("Version")) {
        String size = v.text("Size");
        versions.add(
            new Version(
                required(v, "Key"),
                required(v, "VersionId"),
                "true".equals(v.text("IsLatest")),
                instant(v.text("LastModified")),
                size == null ? 0 : Long.parseLong(size),
                marker));
      }
    }
    return new VersionPage(versions, "true".equals(page.text("IsTruncated")));
  }

  /** The retention of the key's version ({@code null}: current); none if it has none. */
  Retention retention(String key, @Nullable String versionId) throws IOException {
    Xml xml =
        document(
            request("GetObjectRetention", "GET", key)
                .query("retention", "")
                .query("versionId", versionId));
    String mode = xml.text("Mode");
    String until = xml.text("RetainUntilDate");
    if (mode == null || mode.isEmpty() || until == null) {
      return Retention.NONE;
    }
    return Retention.of(Retention.Mode.valueOf(mode), instant(until));
  }

  /**
   * Sets the retention of one version ({@code null}: the current one); retried, it is idempotent.
   */
  void putRetention(String key, @Nullable String versionId, Retention retention)
      throws IOException {
    byte[] document =
        ("<Retention xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Mode>"
                + retention.mode().name()
                + "</Mode><RetainUntilDate>"
                + retention.until()
                + "</RetainUntilDate></Retention>")
            .getBytes(StandardCharsets.UTF_8);
    Builder request =
        request("PutObjectRetention", "PUT", key)
            .query("retention", "")
            .query("versionId", versionId)
            .header("Content-MD5", base64(Hashes.of("MD5", document)))
            .body(S3Http.Body.of(document));
    retries.call(
        () -> {
          send(request).close();
          return true;
        });
  }

  /**
   * PUT of a new object, once: with {@code If-None-Match: *}, its Content-MD5, {@code metadata},
   * and the lock mode and date of {@code retention} unless none.
   *
   * @return the new version's id, or null on a bucket without versioning
   */
  @Nullable String put(
      String key, S3Http.Body body, byte[] md5, Map<String, String> metadata, Retention retention) {
    Builder request =
        request("PutObject", "PUT", key)
            .header("Content-MD5", base64(md5))
            .header("If-None-Match", "*")
            .metadata(metadata)
            .body(body);
    if (!retention.isNone()) {
      request
          .header("x-amz-object-lock-mode", retention.mode().name())
          .header("x-amz-object-lock-retain-until-date", retention.until().toString());
    }
    try (S3Http.Response r = send(request)) {
      return versionId(r);
    }
  }

  /** Starts a multipart upload; returns its id. */
  String createMultipartUpload(String key, Map<String, String> metadata) {
    Xml answer =
        parse(
            send(request("CreateMultipartUpload", "POST", key)
                    .query("uploads", "")
                    .metadata(metadata)
                    // An empty body still goes streamed: the JDK resends a POST without one.
                    .body(S3Http.Body.of(new byte[0])))
                .text());
    return required(answer, "UploadId");
  }

  /** Uploads one part (again, if it was: the later one counts); returns its ETag. Retried. */
  String uploadPart(String key, String uploadId, int number, byte[] part) throws IOException {
    return retries.call(() -> sendPart(key, uploadId, number, part));
  }

  private String sendPart(String key, String uploadId, int number, byte[] part) {
    try (S3Http.Response r =
        send(
            request("UploadPart", "PUT", key)
                .query("partNumber", Integer.toString(number))
                .query("uploadId", uploadId)
                .header("Content-MD5", base64(Hashes.of("MD5", part)))
                .body(S3Http.Body.of(part)))) {
      String eTag = r.header("ETag");
      if (eTag == null) {
        throw new S3Failure(
            0, "MalformedAnswer", "no ETag for part " + number + " of " + key, null);
      }
      return eTag;
    }
  }

  /** Completes the upload of {@code eTags} (parts 1…n), if the key has no object yet. */
  @Nullable String completeMultipartUpload(String key, String uploadId, List<String> eTags) {
    StringBuilder document = new StringBuilder("<CompleteMultipartUpload>");
    for (int i = 0; i < eTags.size(); i++) {
      document
          .append("<Part><PartNumber>")
          .append(i + 1)
          .append("</PartNumber><ETag>")
          .append(eTags.get(i).replace("&", "&amp;").replace("\"", "&quot;"))
          .append("</ETag></Part>");
    }
    document.append("</CompleteMultipartUpload>");
    try (S3Http.Response r =
        send(
            request("CompleteMultipartUpload", "POST", key)
                .query("uploadId", uploadId)
                .header("If-None-Match", "*")
                .body(S3Http.Body.of(document.toString().getBytes(StandardCharsets.UTF_8))))) {
      String versionId = versionId(r);
      // S3 may answer 200 and still fail, with an error document as the body.
      Xml answer = parse(r.text());
      if (answer.name().equals("Error")) {
        throw new S3Failure(
            500,
            answer.text("Code"),
            answer.text("Message") + " (CompleteMultipartUpload " + key + ")",
            null);
      }
      return versionId;
    }
  }

  void abortMultipartUpload(String key, String uploadId) {
    send(request("AbortMultipartUpload", "DELETE", key).query("uploadId", uploadId)).close();
  }

  /** Deletes one version of the key; retried, it is idempotent. */
  void delete(String key, String versionId) throws IOException {
    retries.call(
        () -> {
          send(request("DeleteObject", "DELETE", key).query("versionId", versionId)).close();
          return true;
        });
  }

  private S3Http.Response send(Builder request) {
    return http.send(request.build());
  }

  /** The metadata of the object an answer (HEAD or GET) is about. */
  static Head headOf(S3Http.Response r) {
    String modified = r.header("Last-Modified");
    Instant lastModified;
    try {
      lastModified =
          modified == null
              ? Instant.EPOCH
              : ZonedDateTime.parse(modified, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    } catch (DateTimeParseException e) {
      lastModified = Instant.EPOCH;
    }
    return new Head(r.length(), lastModified, versionId(r), r.header("ETag"), r.metadata());
  }

  /** The answer's version id; null for none, and for S3's "null" (written without versioning). */
  static @Nullable String versionId(S3Http.Response r) {
    String id = r.header("x-amz-version-id");
    return id == null || id.equals("null") ? null : id;
  }

  private static Xml parse(String document) {
    try {
      return Xml.parse(document);
    } catch (IllegalArgumentException e) {
      throw new S3Failure(
          0, "MalformedAnswer", "the server's answer is not XML: " + e.getMessage(), e);
    }
  }

  /** The text of {@code xml}'s child {@code name}; an answer without it is malformed. */
  private static String required(Xml xml, String name) {
    String text = xml.text(name);
    if (text == null) {
      throw new S3Failure(
          0, "MalformedAnswer", "the server's answer has no " + name + " in " + xml.name(), null);
    }
    return text;
  }

  private static Instant instant(@Nullable String text) {
    return text == null ? Instant.EPOCH : Instant.parse(text);
  }

  private static String base64(byte[] bytes) {
    return Base64.getEncoder().encodeToString(bytes);
  }

  private static Builder request(String operation, String method, @Nullable String key) {
    return new Builder(operation, method, key);
  }

  /** A request being put together; parameters and headers given null are left out. */
  private static final class Builder {
    private final String operation;
    private final String method;
    private final @Nullable String key;
    private final SortedMap<String, String> query = new TreeMap<>();
    private final Map<String, String> headers = new HashMap<>();
    private S3Http.@Nullable Body body;

    Builder(String operation, String method, @Nullable String key) {
      this.operation = operation;
      this.method = method;
      this.key = key;
    }

    Builder query(String name, @Nullable String value) {
      if (value != null) {
        query.put(name, value);
      }
      return this;
    }

    Builder header(String name, @Nullable String value) {
      if (value != null) {
        headers.put(name, value);
      }
      return this;
    }

    Builder metadata(Map<String, String> metadata) {
      metadata.forEach((name, value) -> headers.put("x-amz-meta-" + name, value));
      return this;
    }

    Builder body(S3Http.Body content) {
      this.body = content;
      return this;
    }

    S3Http.Request build() {
      return new S3Http.Request(operation, method, key, query, headers, body);
    }
  }
}
