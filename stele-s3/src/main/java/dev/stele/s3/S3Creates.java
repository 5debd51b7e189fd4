package dev.stele.s3;

import dev.stele.blob.BlobExistsException;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.Retention;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectRetentionResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ObjectLockMode;
import software.amazon.awssdk.services.s3.model.ObjectLockRetentionMode;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * How {@link S3BlobStore} creates a blob without ever replacing one, and retains it provably.
 *
 * <p>A create:
 *
 * <ol>
 *   <li>HEADs the key; an existing object is {@link BlobExistsException}, and nothing is written.
 *   <li>PUTs it with {@code If-None-Match: *}, Content-MD5, the blob's MD5 in user metadata {@code
 *       stele-md5}, and the lock mode and retain-until date. Blobs over the multipart threshold go
 *       up in parts (each with Content-MD5); lock headers on CreateMultipartUpload are ignored by
 *       RGW, so retention is set with PutObjectRetention after CompleteMultipartUpload.
 *   <li>If the PUT's outcome is unknown (timeout, 5xx, connection lost), HEADs again before the
 *       next attempt: an object of the same size and MD5 means the earlier attempt landed, and the
 *       create is done; any other object means someone else's create won.
 *   <li>On a versioned bucket, lists the key's versions: an older version than ours, with no delete
 *       marker in between, means another create won a race that HEAD and If-None-Match (ignored by
 *       RGW on versioned buckets) both let through. Our version is then deleted by id and the
 *       create reports {@link BlobExistsException}.
 *   <li>Reads the retention of its version back; anything short of what was asked fails loudly.
 * </ol>
 *
 * <p>The residual race: if the losing version is itself retained (its create asked for retention,
 * or the bucket has a default rule), the server refuses to delete it and the key's current version
 * is the loser's. That create fails with an {@link IOException} saying so; the winner's version is
 * intact and readable by version id. Stele never gets there in practice, because every name it
 * writes is unique by construction — content-addressed (so racing writers hold the same bytes) or
 * random — and the only fixed name, the format blob, is written once by {@code init}.
 *
 * <p>Concurrency: stateless apart from the clients; safe for many threads.
 */
final class S3Creates {
  private final S3Clients clients;
  private final S3Location location;
  private final BucketConfig config;
  private final S3Options options;
  private final S3Retries retries;
  private final KnownRetention known;

  S3Creates(
      S3Clients clients,
      S3Location location,
      BucketConfig config,
      S3Options options,
      S3Retries retries,
      KnownRetention known) {
    this.clients = clients;
    this.location = location;
    this.config = config;
    this.options = options;
    this.retries = retries;
    this.known = known;
  }

  void create(String name, byte[] data, Retention requested) throws IOException {
    create(name, Body.of(data), requested);
  }

  /** As {@link #create(String, byte[], Retention)}, sending {@code file} as it is read. */
  void create(String name, Path file, Retention requested) throws IOException {
    create(name, Body.of(file), requested);
  }

  private void create(String name, Body data, Retention requested) throws IOException {
    String key = location.key(name);
    if (!requested.isNone() && !config.objectLock()) {
      throw new IOException(
          name
              + ": cannot retain it ("
              + requested
              + "): bucket "
              + location.bucket()
              + " does not have object lock enabled");
    }
    Retention retention =
        requested.isNone()
            ? requested
            : Retention.of(requested.mode(), ceilSeconds(requested.until()));
    byte[] md5 = data.md5();
    if (head(name) != null) {
      throw new BlobExistsException(name);
    }
    boolean multipart = data.length() > options.multipartThreshold();
    String versionId = null;
    boolean ours = true;
    for (int attempt = 1; ; attempt++) {
      try {
        versionId =
            multipart ? uploadInParts(key, data.bytes(), md5) : put(key, data, md5, retention);
        break;
      } catch (SdkException e) {
        if (S3Errors.status(e) == 412) {
          throw exists(name, e);
        }
        if (attempt >= retries.maxAttempts() || !S3Retries.retryable(e)) {
          throw S3Errors.io(name + ": create", e);
        }
        retries.pause(attempt);
        HeadObjectResponse landed = head(name);
        if (landed != null) {
          if (landed.contentLength() == data.length() && md5Matches(landed, md5)) {
            versionId = landed.versionId();
            ours = false; // landed earlier: nothing new to check about races
            break;
          }
          throw exists(name, e);
        }
      }
    }
    // Only a version known to be the key's oldest may stand for the original in later checks.
    boolean original = !config.versioned();
    if (ours && versionId != null && config.versioned()) {
      original = checkFirst(name, key, versionId);
    }
    if (!retention.isNone()) {
      Retention verified;
      if (multipart || !ours) {
        // Lock headers were not sent with the object (multipart), or we cannot tell whether the
        // attempt that landed carried them: set retention on the version now (extend-only).
        Retention current = retentionOf(name, key, versionId);
        if (!current.isNone() && !current.until().isBefore(retention.until())) {
          verified = requireAtLeast(name, retention, current); // already read: no second GET
        } else {
          putRetention(name, key, versionId, retention);
          verified = verifyRetention(name, key, versionId, retention);
        }
      } else {
        verified = verifyRetention(name, key, versionId, retention);
      }
      if (original) {
        known.remember(name, versionId, verified);
      }
    }
  }

  private String put(String key, Body data, byte[] md5, Retention retention) {
    PutObjectRequest.Builder request =
        PutObjectRequest.builder()
            .bucket(location.bucket())
            .key(key)
            .contentLength(data.length())
            .contentMD5(Base64.getEncoder().encodeToString(md5))
            .metadata(Map.of(S3BlobStore.MD5_METADATA, HexFormat.of().formatHex(md5)))
            .ifNoneMatch("*");
    if (!retention.isNone()) {
      request
          .objectLockMode(ObjectLockMode.fromValue(retention.mode().name()))
          .objectLockRetainUntilDate(retention.until());
    }
    return clients.writes.putObject(request.build(), data.requestBody()).versionId();
  }

  private String uploadInParts(String key, byte[] data, byte[] md5) throws IOException {
    String uploadId =
        clients
            .writes
            .createMultipartUpload(
                b ->
                    b.bucket(location.bucket())
                        .key(key)
                        .metadata(Map.of(S3BlobStore.MD5_METADATA, HexFormat.of().formatHex(md5))))
            .uploadId();
    try {
      List<CompletedPart> parts = new ArrayList<>();
      int partSize = options.partSize();
      for (int number = 1, offset = 0; offset < data.length; number++, offset += partSize) {
        byte[] part = Arrays.copyOfRange(data, offset, Math.min(data.length, offset + partSize));
        String partMd5 = Base64.getEncoder().encodeToString(md5(part));
        int partNumber = number;
        // A part may be uploaded again: the later upload replaces the earlier one.
        String etag =
            retries
                .call(
                    () ->
                        clients.writes.uploadPart(
                            b ->
                                b.bucket(location.bucket())
                                    .key(key)
                                    .uploadId(uploadId)
                                    .partNumber(partNumber)
                                    .contentLength((long) part.length)
                                    .contentMD5(partMd5),
                            RequestBody.fromBytes(part)))
                .eTag();
        parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
      }
      return clients
          .writes
          .completeMultipartUpload(
              b ->
                  b.bucket(location.bucket())
                      .key(key)
                      .uploadId(uploadId)
                      .ifNoneMatch("*")
                      .multipartUpload(u -> u.parts(parts)))
          .versionId();
    } catch (SdkException | IOException e) {
      abortQuietly(key, uploadId);
      throw e;
    }
  }

  private void abortQuietly(String key, String uploadId) {
    try {
      clients.writes.abortMultipartUpload(
          b -> b.bucket(location.bucket()).key(key).uploadId(uploadId));
    } catch (SdkException ignored) {
      // Completed after all (the answer was lost), or unreachable: a lifecycle rule for
      // incomplete uploads is the backstop, see docs/s3.md.
    }
  }

  /**
   * Fails the create if an older version of the key was there before ours.
   *
   * @return whether ours is the key's oldest version (not merely the first after a delete marker)
   */
  private boolean checkFirst(String name, String key, String versionId) throws IOException {
    record Entry(String versionId, boolean marker, Instant modified) {}
    List<Entry> entries = new ArrayList<>();
    try {
      var pages =
          clients.reads.listObjectVersionsPaginator(b -> b.bucket(location.bucket()).prefix(key));
      for (var page : pages) {
        page.versions().stream()
            .filter(v -> v.key().equals(key))
            .forEach(v -> entries.add(new Entry(v.versionId(), false, v.lastModified())));
        page.deleteMarkers().stream()
            .filter(m -> m.key().equals(key))
            .forEach(m -> entries.add(new Entry(m.versionId(), true, m.lastModified())));
      }
    } catch (SdkException e) {
      throw S3Errors.io(name + ": listing versions after create", e);
    }
    // Servers list a key's versions newest first; markers and versions come in separate lists,
    // so merge by time, keeping the server's order for equal times.
    List<Entry> ordered = new ArrayList<>(entries);
    ordered.sort((a, b) -> b.modified().compareTo(a.modified()));
    int mine = -1;
    for (int i = 0; i < ordered.size(); i++) {
      if (ordered.get(i).versionId().equals(versionId)) {
        mine = i;
      }
    }
    if (mine < 0) {
      throw new IOException(
          name + ": version " + versionId + " just written is missing from the version listing");
    }
    if (mine + 1 >= ordered.size() || ordered.get(mine + 1).marker()) {
      return mine + 1 >= ordered.size(); // first since the key was created or last deleted
    }
    String winner = ordered.get(mine + 1).versionId();
    try {
      retries.call(
          () ->
              clients.writes.deleteObject(
                  b -> b.bucket(location.bucket()).key(key).versionId(versionId)));
    } catch (SdkException e) {
      throw new IOException(
          name
              + ": lost a create race to version "
              + winner
              + ", and our version "
              + versionId
              + " cannot be removed ("
              + S3Errors.status(e)
              + "); the key now shows our bytes, the first writer's are in version "
              + winner,
          e);
    }
    throw new BlobExistsException(name);
  }

  /** Sets the retention of one version; the caller reads it back. */
  void putRetention(String name, String key, String versionId, Retention retention)
      throws IOException {
    try {
      retries.call(
          () ->
              clients.writes.putObjectRetention(
                  b ->
                      b.bucket(location.bucket())
                          .key(key)
                          .versionId(versionId)
                          .retention(
                              r ->
                                  r.mode(ObjectLockRetentionMode.fromValue(retention.mode().name()))
                                      .retainUntilDate(retention.until()))));
    } catch (SdkException e) {
      throw S3Errors.io(name + ": setting retention " + retention, e);
    }
  }

  /**
   * Reads the retention of {@code versionId} back and fails unless it is at least {@code wanted}:
   * the same or a stronger mode, until the same instant or later.
   *
   * @return the retention in force
   */
  Retention verifyRetention(String name, String key, String versionId, Retention wanted)
      throws IOException {
    return requireAtLeast(name, wanted, retentionOf(name, key, versionId));
  }

  /** {@code actual}, unless it is short of {@code wanted} in mode or date: then it fails loudly. */
  private static Retention requireAtLeast(String name, Retention wanted, Retention actual)
      throws IOException {
    if (actual.mode().compareTo(wanted.mode()) < 0 || actual.until().isBefore(wanted.until())) {
      throw new IOException(
          name
              + ": the server did not keep the retention asked for ("
              + wanted
              + "); it reports "
              + actual
              + ". This server or bucket does not enforce object lock; refusing to pretend it"
              + " does");
    }
    return actual;
  }

  /** The retention of one version ({@code null}: the current one); none if it has none. */
  Retention retentionOf(String name, String key, @Nullable String versionId) throws IOException {
    try {
      return retentionFrom(
          retries.call(
              () ->
                  clients.reads.getObjectRetention(
                      b -> b.bucket(location.bucket()).key(key).versionId(versionId))));
    } catch (SdkException e) {
      int status = S3Errors.status(e);
      // Servers say "no retention" in several ways (404 NoSuchObjectLockConfiguration, 400 on a
      // bucket without lock); only the object's own existence tells that from "no object".
      if (status == 404 || status == 400) {
        if (versionId == null ? head(name) == null : !versionExists(key, versionId)) {
          throw new BlobNotFoundException(
              versionId == null ? name : name + " version " + versionId);
        }
        return Retention.NONE;
      }
      throw S3Errors.io(name + ": reading retention", e);
    }
  }

  /** Whether that version of the key exists (a key hidden by a delete marker still has it). */
  private boolean versionExists(String key, String versionId) throws IOException {
    try {
      clients.reads.headObject(b -> b.bucket(location.bucket()).key(key).versionId(versionId));
      return true;
    } catch (SdkException e) {
      int status = S3Errors.status(e);
      if (status == 404 || status == 405 || status == 400) {
        return false;
      }
      throw S3Errors.io(key + " version " + versionId, e);
    }
  }

  /** The object's metadata, or null if there is none (or its current version is a marker). */
  @Nullable HeadObjectResponse head(String name) throws IOException {
    String key = location.key(name);
    try {
      return clients.reads.headObject(b -> b.bucket(location.bucket()).key(key));
    } catch (SdkException e) {
      if (S3Errors.notFound(e)) {
        return null;
      }
      throw S3Errors.io(name, e);
    }
  }

  private static Retention retentionFrom(GetObjectRetentionResponse response) {
    if (response.retention() == null || response.retention().mode() == null) {
      return Retention.NONE;
    }
    return Retention.of(
        Retention.Mode.valueOf(response.retention().modeAsString()),
        response.retention().retainUntilDate());
  }

  private static boolean md5Matches(HeadObjectResponse head, byte[] md5) {
    String recorded = head.metadata().get(S3BlobStore.MD5_METADATA);
    return recorded != null && recorded.equalsIgnoreCase(HexFormat.of().formatHex(md5));
  }

  private static BlobExistsException exists(String name, Exception cause) {
    BlobExistsException e = new BlobExistsException(name);
    e.initCause(cause);
    return e;
  }

  /** Object lock keeps whole seconds; rounding up never shortens what was asked for. */
  static Instant ceilSeconds(Instant instant) {
    Instant down = instant.truncatedTo(ChronoUnit.SECONDS);
    return down.equals(instant) ? down : down.plusSeconds(1);
  }

  /**
   * A blob's content: an array, or a file read as it is sent (a pack from its spool file), so that
   * a create need not hold it in memory. A multipart upload still reads it whole.
   */
  private interface Body {
    long length();

    byte[] md5() throws IOException;

    RequestBody requestBody();

    byte[] bytes() throws IOException;

    static Body of(byte[] data) {
      return new Body() {
        @Override
        public long length() {
          return data.length;
        }

        @Override
        public byte[] md5() {
          return S3Creates.md5(data);
        }

        @Override
        public RequestBody requestBody() {
          return RequestBody.fromBytes(data);
        }

        @Override
        public byte[] bytes() {
          return data;
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
        public byte[] md5() throws IOException {
          MessageDigest digest = newMd5();
          byte[] buffer = new byte[1 << 16];
          try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
              digest.update(buffer, 0, n);
            }
          }
          return digest.digest();
        }

        @Override
        public RequestBody requestBody() {
          return RequestBody.fromFile(file);
        }

        @Override
        public byte[] bytes() throws IOException {
          return Files.readAllBytes(file);
        }
      };
    }
  }

  static byte[] md5(byte[] data) {
    return newMd5().digest(data);
  }

  private static MessageDigest newMd5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK always has MD5", e);
    }
  }
}
