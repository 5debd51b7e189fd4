package dev.stele.s3;

import dev.stele.blob.Aside;
import dev.stele.blob.BlobExistsException;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.Retention;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

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
 *   <li>Reads the retention of its version back, beside the version listing (both only read what
 *       the PUT left); anything short of what was asked fails loudly. A create that lost a race
 *       fails as such whatever the read-back says.
 * </ol>
 *
 * <p>The residual race: if the losing version is itself retained (its create asked for retention,
 * or the bucket has a default rule), the server refuses to delete it and the key's current version
 * is the loser's. That create fails with an {@link IOException} saying so; the winner's version is
 * intact and readable by version id. Stele never gets there in practice, because every name it
 * writes is unique by construction — content-addressed (so racing writers hold the same bytes) or
 * random — and the only fixed name, the format blob, is written once by {@code init}.
 *
 * <p>Concurrency: stateless apart from the client; safe for many threads.
 */
final class S3Creates {
  private final S3Api api;
  private final S3Location location;
  private final BucketConfig config;
  private final S3Options options;
  private final S3Retries retries;
  private final KnownRetention known;

  S3Creates(
      S3Api api,
      S3Location location,
      BucketConfig config,
      S3Options options,
      S3Retries retries,
      KnownRetention known) {
    this.api = api;
    this.location = location;
    this.config = config;
    this.options = options;
    this.retries = retries;
    this.known = known;
  }

  void create(String name, byte[] data, Retention requested) throws IOException {
    create(name, S3Http.Body.of(data), requested);
  }

  /** As {@link #create(String, byte[], Retention)}, sending {@code file} as it is read. */
  void create(String name, Path file, Retention requested) throws IOException {
    create(name, S3Http.Body.of(file), requested);
  }

  private void create(String name, S3Http.Body data, Retention requested) throws IOException {
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
    byte[] md5 = Hashes.of("MD5", data);
    if (head(name) != null) {
      throw new BlobExistsException(name);
    }
    boolean multipart = data.length() > options.multipartThreshold();
    String versionId = null;
    boolean ours = true;
    for (int attempt = 1; ; attempt++) {
      try {
        versionId =
            multipart ? uploadInParts(key, bytes(data), md5) : put(key, data, md5, retention);
        break;
      } catch (S3Failure e) {
        if (e.status() == 412) {
          throw exists(name, e);
        }
        if (attempt >= retries.maxAttempts() || !S3Retries.retryable(e)) {
          throw S3Errors.io(name + ": create", e);
        }
        retries.pause(attempt);
        S3Api.Head landed = head(name);
        if (landed != null) {
          if (landed.length() == data.length() && md5Matches(landed, md5)) {
            versionId = landed.versionId();
            ours = false; // landed earlier: nothing new to check about races
            break;
          }
          throw exists(name, e);
        }
      }
    }
    // The retention of a version sent with its lock headers is read back beside the version
    // listing: two reads of what the PUT left, independent of each other, in one round trip's time.
    // (A create that fails its race check leaves the read to end on its own: nothing waits on it.)
    @Nullable Aside<Retention> readBack = null;
    if (!retention.isNone() && !multipart && ours && config.versioned()) {
      String version = versionId;
      readBack =
          Aside.start("stele-s3-read-back", () -> verifyRetention(name, key, version, retention));
    }
    // Only a version known to be the key's oldest may stand for the original in later checks.
    boolean original = !config.versioned();
    if (ours && versionId != null && config.versioned()) {
      original = checkFirst(name, key, versionId);
    }
    if (!retention.isNone()) {
      Retention verified;
      if (readBack != null) {
        verified = readBack.get();
      } else if (multipart || !ours) {
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

  private @Nullable String put(String key, S3Http.Body data, byte[] md5, Retention retention) {
    return api.put(key, data, md5, metadata(md5), retention);
  }

  private static Map<String, String> metadata(byte[] md5) {
    return Map.of(S3BlobStore.MD5_METADATA, HexFormat.of().formatHex(md5));
  }

  private @Nullable String uploadInParts(String key, byte[] data, byte[] md5) throws IOException {
    String uploadId = api.createMultipartUpload(key, metadata(md5));
    try {
      List<String> eTags = new ArrayList<>();
      int partSize = options.partSize();
      for (int number = 1, offset = 0; offset < data.length; number++, offset += partSize) {
        byte[] part = Arrays.copyOfRange(data, offset, Math.min(data.length, offset + partSize));
        // A part may be uploaded again: the later upload replaces the earlier one.
        eTags.add(api.uploadPart(key, uploadId, number, part));
      }
      return api.completeMultipartUpload(key, uploadId, eTags);
    } catch (S3Failure | IOException e) {
      abortQuietly(key, uploadId);
      throw e;
    }
  }

  private void abortQuietly(String key, String uploadId) {
    try {
      api.abortMultipartUpload(key, uploadId);
    } catch (S3Failure ignored) {
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
    List<S3Api.Version> ordered;
    try {
      ordered = new ArrayList<>(api.versionsOf(key));
    } catch (S3Failure e) {
      throw S3Errors.io(name + ": listing versions after create", e);
    }
    // Servers list a key's versions newest first; sort by time all the same, keeping the server's
    // order for equal times.
    ordered.sort(Comparator.comparing(S3Api.Version::lastModified).reversed());
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
      api.delete(key, versionId);
    } catch (S3Failure e) {
      throw new IOException(
          name
              + ": lost a create race to version "
              + winner
              + ", and our version "
              + versionId
              + " cannot be removed ("
              + e.status()
              + "); the key now shows our bytes, the first writer's are in version "
              + winner,
          e);
    }
    throw new BlobExistsException(name);
  }

  /** Sets the retention of one version; the caller reads it back. */
  void putRetention(String name, String key, @Nullable String versionId, Retention retention)
      throws IOException {
    try {
      api.putRetention(key, versionId, retention);
    } catch (S3Failure e) {
      throw S3Errors.io(name + ": setting retention " + retention, e);
    }
  }

  /**
   * Reads the retention of {@code versionId} back and fails unless it is at least {@code wanted}:
   * the same or a stronger mode, until the same instant or later.
   *
   * @return the retention in force
   */
  Retention verifyRetention(String name, String key, @Nullable String versionId, Retention wanted)
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
      return api.retention(key, versionId);
    } catch (S3Failure e) {
      int status = e.status();
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
      api.head(key, versionId);
      return true;
    } catch (S3Failure e) {
      int status = e.status();
      if (status == 404 || status == 405 || status == 400) {
        return false;
      }
      throw S3Errors.io(key + " version " + versionId, e);
    }
  }

  /** The object's metadata, or null if there is none (or its current version is a marker). */
  S3Api.@Nullable Head head(String name) throws IOException {
    String key = location.key(name);
    try {
      return api.head(key, null);
    } catch (S3Failure e) {
      if (S3Errors.notFound(e)) {
        return null;
      }
      throw S3Errors.io(name, e);
    }
  }

  private static boolean md5Matches(S3Api.Head head, byte[] md5) {
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

  /** A multipart upload reads its blob whole. */
  private static byte[] bytes(S3Http.Body data) throws IOException {
    try (InputStream in = data.open()) {
      return in.readAllBytes();
    }
  }
}
