package dev.stele.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobExistsException;
import dev.stele.blob.BlobNotFoundException;
import dev.stele.blob.BlobRetainedException;
import dev.stele.blob.Retention;
import dev.stele.blob.Retention.Mode;
import dev.stele.testing.AuditingBlobStore;
import dev.stele.testing.BlobOperation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ObjectLockRetentionMode;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** What only a server that enforces Object Lock can show: Ceph RGW, in a bucket with lock. */
class S3ObjectLockTest {
  private static RawS3 raw;
  private static String bucket;

  @BeforeAll
  static void createBucket() throws IOException {
    raw = TestBuckets.raw();
    bucket = TestBuckets.create(raw.s3, true);
  }

  @AfterAll
  static void closeClient() {
    raw.close();
  }

  private static Instant inAMinute() {
    return Instant.now().plusSeconds(60).truncatedTo(ChronoUnit.SECONDS);
  }

  private static List<ObjectVersion> versions(S3BlobStore store, String name) {
    String key = store.location().key(name);
    ListObjectVersionsResponse listing =
        raw.s3.listObjectVersions(b -> b.bucket(bucket).prefix(key));
    assertThat(listing.deleteMarkers()).as("delete markers of %s", key).isEmpty();
    return listing.versions().stream().filter(v -> v.key().equals(key)).toList();
  }

  @Test
  void secondCreateOfANameIsRefusedThoughTheServerIgnoresIfNoneMatch() throws IOException {
    try (S3BlobStore store = TestBuckets.store(bucket)) {
      assertThat(store.capabilities().conditionalCreate()).isFalse();
      store.create("once", new byte[] {1}, Retention.NONE);
      assertThatThrownBy(() -> store.create("once", new byte[] {2}, Retention.NONE))
          .isInstanceOf(BlobExistsException.class);
      assertThat(versions(store, "once")).hasSize(1);
      assertThat(store.read("once")).containsExactly(1);
    }
  }

  @Test
  void createThatLosesARaceAfterItsHeadRemovesItsVersionAndSaysSo() throws IOException {
    // Another writer's PUT lands between this store's HEAD and its PUT.
    S3Http.Tap rival =
        new S3Http.Tap() {
          @Override
          public S3Http.Request sending(S3Http.Request request) {
            if (request.operation().equals("PutObject")) {
              raw.s3.putObject(
                  b -> b.bucket(bucket).key(request.key()), RequestBody.fromBytes(new byte[] {9}));
            }
            return request;
          }
        };
    try (S3BlobStore store = TestBuckets.store(bucket, S3Options.defaults(), List.of(rival))) {
      assertThatThrownBy(() -> store.create("raced", new byte[] {1}, Retention.NONE))
          .isInstanceOf(BlobExistsException.class);
      assertThat(versions(store, "raced")).hasSize(1);
      assertThat(store.read("raced")).containsExactly(9);
    }
  }

  @Test
  void lockedVersionCannotBeDeletedAndStillReads() throws IOException {
    try (S3BlobStore store = TestBuckets.store(bucket)) {
      for (Mode mode : List.of(Mode.GOVERNANCE, Mode.COMPLIANCE)) {
        String name = "locked-" + mode;
        store.create(name, new byte[] {7}, Retention.of(mode, inAMinute()));
        assertThatThrownBy(() -> store.delete(name))
            .isInstanceOf(BlobRetainedException.class)
            .hasMessageContaining("403");
        assertThat(store.read(name)).containsExactly(7);
        assertThat(versions(store, name)).hasSize(1); // and no delete marker pretending
      }
    }
  }

  @Test
  void deleteRemovesEveryVersionNotJustTheCurrentOne() throws IOException {
    try (S3BlobStore store = TestBuckets.store(bucket)) {
      store.create("overwritten", new byte[] {1}, Retention.NONE);
      String key = store.location().key("overwritten");
      // Someone holding the credentials overwrites the key and then "deletes" it.
      raw.s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(new byte[] {2}));
      raw.s3.deleteObject(b -> b.bucket(bucket).key(key));
      assertThatThrownBy(() -> store.read("overwritten")).isInstanceOf(BlobNotFoundException.class);
      store.delete("overwritten");
      ListObjectVersionsResponse left =
          raw.s3.listObjectVersions(b -> b.bucket(bucket).prefix(key));
      assertThat(left.versions()).isEmpty();
      assertThat(left.deleteMarkers()).isEmpty();
      assertThatThrownBy(() -> store.delete("overwritten"))
          .isInstanceOf(BlobNotFoundException.class);
    }
  }

  @Test
  void deleteTouchesOnlyItsOwnKeyNotLongerOnesItPrefixes() throws IOException {
    try (S3BlobStore store = TestBuckets.store(bucket)) {
      store.create("k", new byte[] {1}, Retention.NONE);
      store.create("k2", new byte[] {2}, Retention.NONE);
      store.create("kk/x", new byte[] {3}, Retention.NONE);
      store.delete("k");
      assertThat(store.read("k2")).containsExactly(2);
      assertThat(store.read("kk/x")).containsExactly(3);
      assertThat(versions(store, "k2")).hasSize(1);
    }
  }

  @Test
  void complianceRetentionCannotBeShortened() throws IOException {
    try (S3BlobStore store = TestBuckets.store(bucket)) {
      Instant until = inAMinute();
      store.create("compliance", new byte[] {1}, Retention.of(Mode.COMPLIANCE, until));
      Retention kept = Retention.of(Mode.COMPLIANCE, until);
      assertThat(store.extendRetention("compliance", Mode.COMPLIANCE, until.minusSeconds(30)))
          .isEqualTo(kept);
      assertThat(store.retention("compliance")).isEqualTo(kept);
      // Behind the store's back, the server itself refuses.
      String key = store.location().key("compliance");
      assertThatThrownBy(
              () ->
                  raw.s3.putObjectRetention(
                      b ->
                          b.bucket(bucket)
                              .key(key)
                              .retention(
                                  r ->
                                      r.mode(ObjectLockRetentionMode.COMPLIANCE)
                                          .retainUntilDate(until.minusSeconds(30)))))
          .isInstanceOfSatisfying(
              S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
      assertThat(store.retention("compliance")).isEqualTo(kept);
    }
  }

  @Test
  void retentionTheServerDroppedFailsTheCreateLoudly() throws IOException {
    // A server that accepts lock headers and ignores them (S3Mock, s3rver) looks like this.
    S3Http.Tap dropLock =
        new S3Http.Tap() {
          @Override
          public S3Http.Request sending(S3Http.Request request) {
            java.util.Map<String, String> kept = new java.util.HashMap<>(request.headers());
            kept.keySet()
                .removeIf(
                    h -> h.toLowerCase(java.util.Locale.ROOT).startsWith("x-amz-object-lock"));
            return new S3Http.Request(
                request.operation(),
                request.method(),
                request.key(),
                request.query(),
                kept,
                request.body());
          }
        };
    try (S3BlobStore store = TestBuckets.store(bucket, S3Options.defaults(), List.of(dropLock))) {
      assertThatThrownBy(
              () ->
                  store.create(
                      "dropped", new byte[] {1}, Retention.of(Mode.COMPLIANCE, inAMinute())))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("did not keep the retention");
    }
  }

  /**
   * A create reads its version's retention back while it lists the key's versions, not after: the
   * listing is held here until the read-back has been sent, which a create doing one after the
   * other would never do.
   */
  @Test
  void theRetentionReadBackRunsBesideTheVersionListing() throws Exception {
    CountDownLatch readBackSent = new CountDownLatch(1);
    AtomicBoolean armed = new AtomicBoolean();
    AtomicBoolean overlapped = new AtomicBoolean();
    S3Http.Tap holdListing =
        new S3Http.Tap() {
          @Override
          public S3Http.Request sending(S3Http.Request request) {
            if (armed.get() && request.operation().equals("GetObjectRetention")) {
              readBackSent.countDown();
            }
            if (armed.get() && request.operation().equals("ListObjectVersions")) {
              try {
                overlapped.set(readBackSent.await(20, TimeUnit.SECONDS));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            return request;
          }
        };
    Retention asked = Retention.of(Mode.GOVERNANCE, inAMinute());
    try (S3BlobStore store =
        TestBuckets.store(bucket, S3Options.defaults(), List.of(holdListing))) {
      armed.set(true);
      store.create("read-back", new byte[] {1, 2}, asked);
      armed.set(false);

      assertThat(overlapped).as("the read-back was sent while the listing waited").isTrue();
      assertThat(store.retention("read-back")).isEqualTo(asked);
    }
  }

  @Test
  void retentionOnABucketWithoutObjectLockIsRefusedNotPretended() throws IOException {
    String plain = TestBuckets.create(raw.s3, false);
    try (S3BlobStore store = TestBuckets.store(plain)) {
      assertThat(store.capabilities().objectLock()).isFalse();
      assertThatThrownBy(
              () -> store.create("x", new byte[] {1}, Retention.of(Mode.GOVERNANCE, inAMinute())))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("does not have object lock");
      assertThat(store.list("")).isEmpty();
      store.create("y", new byte[] {1}, Retention.NONE);
      assertThatThrownBy(() -> store.extendRetention("y", Mode.GOVERNANCE, inAMinute()))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("no object lock");
      assertThat(store.retention("y")).isEqualTo(Retention.NONE);
    }
  }

  @Test
  void createWhoseAnswerWasLostKeepsTheRetentionItLandedWithAndReadsItOnce() throws IOException {
    RequestLog log = new RequestLog();
    // The first PUT reaches the server, which stores it; its answer is then lost. (Taps run in
    // order: listed after the log, this runs after the log has the PUT.)
    S3Http.Tap loseFirstAnswer =
        new S3Http.Tap() {
          private boolean lost;

          @Override
          public void answered(S3Http.Request request, int status) {
            if (!lost && request.operation().equals("PutObject")) {
              lost = true;
              throw S3Failure.noAnswer("injected: read timed out", new IOException("lost"));
            }
          }
        };
    try (S3BlobStore store =
        TestBuckets.store(bucket, S3Options.defaults(), List.of(log, loseFirstAnswer))) {
      Instant until = inAMinute();
      store.create("lost-answer", new byte[] {4}, Retention.of(Mode.GOVERNANCE, until));
      assertThat(log.count("PutObject")).as(log.lines().toString()).isEqualTo(1);
      // The landed PUT carried the lock headers: read once, found enough, nothing set again.
      assertThat(log.count("PutObjectRetention")).as(log.lines().toString()).isZero();
      assertThat(log.count("GetObjectRetention")).as(log.lines().toString()).isEqualTo(1);
      assertThat(store.retention("lost-answer")).isEqualTo(Retention.of(Mode.GOVERNANCE, until));
      assertThat(versions(store, "lost-answer")).hasSize(1);
    }
  }

  @Test
  void multipartUploadGetsItsRetentionAfterCompletion() throws IOException {
    RequestLog log = new RequestLog();
    S3Options options = S3Options.defaults().withMultipart(6 << 20, 5 << 20);
    try (S3BlobStore store = TestBuckets.store(bucket, options, List.of(log))) {
      byte[] data = new byte[11 << 20];
      new Random(7).nextBytes(data);
      Instant until = inAMinute();
      store.create("packs/big", data, Retention.of(Mode.GOVERNANCE, until));
      assertThat(log.count("UploadPart")).isEqualTo(3);
      assertThat(log.count("CompleteMultipartUpload")).isEqualTo(1);
      assertThat(log.count("PutObjectRetention")).isEqualTo(1);
      assertThat(log.lines().toString())
          .matches(".*CompleteMultipartUpload.*PutObjectRetention.*GetObjectRetention.*");
      assertThat(store.retention("packs/big")).isEqualTo(Retention.of(Mode.GOVERNANCE, until));
      assertThat(store.read("packs/big")).isEqualTo(data);
      assertThat(versions(store, "packs/big")).hasSize(1);
      assertThatThrownBy(() -> store.delete("packs/big")).isInstanceOf(BlobRetainedException.class);
    }
  }

  @Test
  void retentionAndItsExtensionActOnTheOriginalVersionNotAnOverwrite() throws IOException {
    try (S3BlobStore s3 = TestBuckets.store(bucket)) {
      AuditingBlobStore store = new AuditingBlobStore(s3, Clock.systemUTC());
      Instant created = inAMinute();
      store.create("packs/p", new byte[] {1}, Retention.of(Mode.GOVERNANCE, created));
      String original = versions(s3, "packs/p").get(0).versionId();
      // Someone holding the credentials overwrites the key: a new current version, unretained.
      String key = s3.location().key("packs/p");
      raw.s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(new byte[] {66}));
      assertThat(s3.read("packs/p")).containsExactly(66); // reads stay on the current version

      assertThat(store.retention("packs/p")).isEqualTo(Retention.of(Mode.GOVERNANCE, created));
      Instant later = created.plusSeconds(60);
      assertThat(store.extendRetention("packs/p", Mode.GOVERNANCE, later))
          .isEqualTo(Retention.of(Mode.GOVERNANCE, later));

      List<ObjectVersion> versions = versions(s3, "packs/p");
      assertThat(versions).hasSize(2);
      for (ObjectVersion v : versions) {
        if (v.versionId().equals(original)) {
          assertThat(
                  raw.s3
                      .getObjectRetention(b -> b.bucket(bucket).key(key).versionId(original))
                      .retention()
                      .retainUntilDate())
              .as("the original version's retain-until")
              .isEqualTo(later);
        } else {
          assertThatThrownBy(
                  () ->
                      raw.s3.getObjectRetention(
                          b -> b.bucket(bucket).key(key).versionId(v.versionId())))
              .as("the overwrite has no retention")
              .isInstanceOfSatisfying(
                  S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(404));
        }
      }
      assertThat(store.retention("packs/p")).isEqualTo(Retention.of(Mode.GOVERNANCE, later));
      // The audit sees what is in force on the original version.
      assertThat(store.calls())
          .filteredOn(c -> c.operation() == BlobOperation.EXTEND_RETENTION)
          .singleElement()
          .satisfies(
              c -> assertThat(c.retention()).isEqualTo(Retention.of(Mode.GOVERNANCE, later)));

      // Hidden behind a delete marker, the original is still the one retention concerns.
      raw.s3.deleteObject(b -> b.bucket(bucket).key(key));
      Instant latest = later.plusSeconds(60);
      assertThat(store.extendRetention("packs/p", Mode.GOVERNANCE, latest))
          .isEqualTo(Retention.of(Mode.GOVERNANCE, latest));
      assertThat(store.retention("packs/p")).isEqualTo(Retention.of(Mode.GOVERNANCE, latest));
      assertThat(s3.retentionOfVersion("packs/p", original))
          .isEqualTo(Retention.of(Mode.GOVERNANCE, latest));
    }
  }

  @Test
  void aCheckThenAnExtensionListsTheVersionsAndReadsTheRetentionOnce() throws IOException {
    S3Location location = TestBuckets.location(bucket);
    Instant created = inAMinute();
    try (S3BlobStore writer = S3BlobStore.open(location)) {
      writer.create("packs/reused", new byte[] {5}, Retention.of(Mode.GOVERNANCE, created));
    }
    RequestLog log = new RequestLog();
    // A later process: it knows nothing of the blob yet.
    try (S3BlobStore store = S3BlobStore.open(location, S3Options.defaults(), List.of(log))) {
      assertThat(store.retention("packs/reused")).isEqualTo(Retention.of(Mode.GOVERNANCE, created));
      Instant later = created.plusSeconds(60);
      assertThat(store.extendRetention("packs/reused", Mode.GOVERNANCE, later))
          .isEqualTo(Retention.of(Mode.GOVERNANCE, later));
      assertThat(log.count("ListObjectVersions")).as(log.toString()).isEqualTo(1);
      assertThat(log.count("GetObjectRetention")).as(log.toString()).isEqualTo(2);
      assertThat(log.count("PutObjectRetention")).as(log.toString()).isEqualTo(1);
      String key = location.key("packs/reused");
      assertThat(
              raw.s3
                  .getObjectRetention(b -> b.bucket(bucket).key(key))
                  .retention()
                  .retainUntilDate())
          .isEqualTo(later);
    }
  }

  @Test
  void checksOfManyBlobsListTheirDirectoryOnceAndAnOverwrittenKeyOnItsOwn() throws IOException {
    S3Location location = TestBuckets.location(bucket);
    Instant created = inAMinute();
    try (S3BlobStore writer = S3BlobStore.open(location)) {
      for (int i = 0; i < 3; i++) {
        writer.create("packs/p" + i, new byte[] {(byte) i}, Retention.of(Mode.GOVERNANCE, created));
      }
    }
    String overwritten = location.key("packs/p2");
    raw.s3.putObject(
        b -> b.bucket(bucket).key(overwritten), RequestBody.fromBytes(new byte[] {66}));
    RequestLog log = new RequestLog();
    try (S3BlobStore store = S3BlobStore.open(location, S3Options.defaults(), List.of(log))) {
      for (int i = 0; i < 3; i++) {
        assertThat(store.retention("packs/p" + i))
            .as("packs/p%d", i)
            .isEqualTo(Retention.of(Mode.GOVERNANCE, created));
      }
      assertThat(log.count("ListObjectVersions")).as(log.toString()).isEqualTo(2);
      assertThat(log.count("GetObjectRetention")).as(log.toString()).isEqualTo(3);
    }
  }

  @Test
  void aRetentionReadBackFarAheadIsTrustedAndOneCloseToItsEndIsReadAgain() throws IOException {
    RequestLog log = new RequestLog();
    try (S3BlobStore store = TestBuckets.store(bucket, S3Options.defaults(), List.of(log))) {
      Instant far = Instant.now().plus(Duration.ofHours(2)).truncatedTo(ChronoUnit.SECONDS);
      Instant near = inAMinute();
      store.create("packs/far", new byte[] {6}, Retention.of(Mode.GOVERNANCE, far));
      store.create("packs/near", new byte[] {7}, Retention.of(Mode.GOVERNANCE, near));
      log.clear();
      assertThat(store.retention("packs/far")).isEqualTo(Retention.of(Mode.GOVERNANCE, far));
      assertThat(store.extendRetention("packs/far", Mode.GOVERNANCE, far.minusSeconds(60)))
          .isEqualTo(Retention.of(Mode.GOVERNANCE, far));
      assertThat(log.lines())
          .as("what the create read back, far ahead, needs no request")
          .isEmpty();

      assertThat(store.retention("packs/near")).isEqualTo(Retention.of(Mode.GOVERNANCE, near));
      assertThat(log.count("GetObjectRetention")).as(log.toString()).isEqualTo(1);
      assertThat(log.count("ListObjectVersions"))
          .as("the original version is known from the create")
          .isZero();
    }
  }

  @Test
  void retentionKeptOnDiskSparesALaterProcessItsRequestsButAForgedFileIsNotBelieved(
      @TempDir Path cache) throws IOException {
    byte[] key = new byte[32];
    S3Location location = TestBuckets.location(bucket);
    Instant far = Instant.now().plus(Duration.ofHours(2)).truncatedTo(ChronoUnit.SECONDS);
    Instant near = inAMinute();
    try (S3BlobStore first = S3BlobStore.open(location)) {
      first.keepRetentionIn(cache, key);
      first.create("packs/kept", new byte[] {9}, Retention.of(Mode.GOVERNANCE, far));
      first.create("packs/short", new byte[] {10}, Retention.of(Mode.GOVERNANCE, near));
    }
    RequestLog log = new RequestLog();
    try (S3BlobStore later = S3BlobStore.open(location, S3Options.defaults(), List.of(log))) {
      later.keepRetentionIn(cache, key);
      log.clear();
      assertThat(later.retention("packs/kept")).isEqualTo(Retention.of(Mode.GOVERNANCE, far));
      assertThat(log.lines()).as("read back by the first process, far ahead").isEmpty();
      assertThat(later.retention("packs/short")).isEqualTo(Retention.of(Mode.GOVERNANCE, near));
      assertThat(log.count("GetObjectRetention")).as("ends within the margin").isEqualTo(1);
      assertThat(log.count("ListObjectVersions")).as("the version id came from the file").isZero();
    }

    // Someone without the repository's key writes that packs/short is retained for a year.
    Path file;
    try (var files = Files.list(cache)) {
      file = files.findFirst().orElseThrow();
    }
    KnownRetention forged = new KnownRetention(Clock.systemUTC());
    Instant year = near.plus(Duration.ofDays(365));
    forged.remember("packs/short", "forged", Retention.of(Mode.GOVERNANCE, year));
    byte[] otherKey = new byte[32];
    otherKey[0] = 1;
    new RetentionFile(file, otherKey, location.toString()).save(forged.current());
    try (S3BlobStore later = S3BlobStore.open(location)) {
      later.keepRetentionIn(cache, key);
      Instant needed = near.plusSeconds(60);
      later.extendRetention("packs/short", Mode.GOVERNANCE, needed);
    }
    String shortKey = location.key("packs/short");
    assertThat(
            raw.s3
                .getObjectRetention(b -> b.bucket(bucket).key(shortKey))
                .retention()
                .retainUntilDate())
        .as("extended on the server, whatever the forged file said")
        .isEqualTo(near.plusSeconds(60));
  }

  @Test
  void anExtensionFromAStaleCheckNeverShortensWhatSomeoneElseExtended() throws IOException {
    try (S3BlobStore store = TestBuckets.store(bucket)) {
      Instant created = inAMinute();
      store.create("packs/shared", new byte[] {8}, Retention.of(Mode.GOVERNANCE, created));
      assertThat(store.retention("packs/shared")).isEqualTo(Retention.of(Mode.GOVERNANCE, created));
      // Another process extends it further after our check.
      Instant theirs = created.plusSeconds(120);
      String key = store.location().key("packs/shared");
      raw.s3.putObjectRetention(
          b ->
              b.bucket(bucket)
                  .key(key)
                  .retention(
                      r -> r.mode(ObjectLockRetentionMode.GOVERNANCE).retainUntilDate(theirs)));

      Instant ours = created.plusSeconds(60);
      assertThat(store.extendRetention("packs/shared", Mode.GOVERNANCE, ours).until())
          .isEqualTo(theirs);
      assertThat(
              raw.s3
                  .getObjectRetention(b -> b.bucket(bucket).key(key))
                  .retention()
                  .retainUntilDate())
          .isEqualTo(theirs);
    }
  }

  @Test
  void bucketInspectionReportsVersioningLockAndDefaultRule() throws IOException {
    String locked = TestBuckets.create(raw.s3, true);
    BucketConfig lockConfig = BucketInspector.inspect(TestBuckets.api(locked), locked);
    assertThat(lockConfig)
        .isEqualTo(new BucketConfig(locked, "Enabled", true, Mode.NONE, Duration.ZERO));
    assertThat(lockConfig.problemWith(Mode.COMPLIANCE)).isEmpty();

    raw.s3.putObjectLockConfiguration(
        b ->
            b.bucket(locked)
                .objectLockConfiguration(
                    c ->
                        c.objectLockEnabled("Enabled")
                            .rule(
                                r ->
                                    r.defaultRetention(
                                        d -> d.mode(ObjectLockRetentionMode.COMPLIANCE).days(2)))));
    assertThat(BucketInspector.inspect(TestBuckets.api(locked), locked))
        .isEqualTo(new BucketConfig(locked, "Enabled", true, Mode.COMPLIANCE, Duration.ofDays(2)));

    String plain = TestBuckets.create(raw.s3, false);
    BucketConfig plainConfig = BucketInspector.inspect(TestBuckets.api(plain), plain);
    assertThat(plainConfig)
        .isEqualTo(new BucketConfig(plain, "Off", false, Mode.NONE, Duration.ZERO));
    assertThat(plainConfig.problemWith(Mode.COMPLIANCE))
        .hasValueSatisfying(m -> assertThat(m).contains("object lock", "--lock-mode none"));
    assertThat(plainConfig.problemWith(Mode.NONE)).isEmpty();

    S3Api missing = TestBuckets.api("no-such-bucket-here");
    assertThatThrownBy(() -> BucketInspector.inspect(missing, "no-such-bucket-here"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("NoSuchBucket");
  }
}
