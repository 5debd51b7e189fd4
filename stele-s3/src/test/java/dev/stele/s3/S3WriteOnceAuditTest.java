package dev.stele.s3;

import static dev.stele.s3.S3Repositories.backup;
import static dev.stele.s3.S3Repositories.restore;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.Retention;
import dev.stele.maintenance.Maintenance;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.AuditingBlobStore;
import dev.stele.testing.BlobOperation;
import dev.stele.testing.RandomTree;
import dev.stele.testing.TreeAssert;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.model.ObjectVersion;

/**
 * The write-once audit of a whole life cycle — init, snapshots, forget, a new key, maintenance runs
 * that really delete — over an {@link S3BlobStore} on a COMPLIANCE bucket in Ceph RGW, checked from
 * both sides: the calls Stele made (no name written twice, deletes only in maintenance, none of a
 * blob still retained) and the versions the server holds (exactly one per key that exists, no
 * delete markers: a delete removes versions).
 *
 * <p>Two clocks. Retention is the server's, by its real clock: blobs are created with a few
 * seconds' minimum, and the test really waits that out. Maintenance's windows are Stele's, by
 * {@link AheadClock}: real time plus an offset the test moves forward by hours or days. (A {@code
 * MutableClock} standing still would date the retain-until of a slow backup's last PUT in the
 * past.) A blob created after the clock moved ahead is retained by the server for that much longer
 * than Stele believes, so a delete of one is refused with 403 and deferred: the refusal path of
 * rule 2.
 */
class S3WriteOnceAuditTest {
  @TempDir Path tmp;

  /** Real time plus an offset that only grows. */
  static final class AheadClock extends Clock {
    private volatile Duration offset = Duration.ZERO;

    void advance(Duration by) {
      offset = offset.plus(by);
    }

    @Override
    public Instant instant() {
      return Instant.now().plus(offset);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }

  private final AheadClock clock = new AheadClock();
  private AuditingBlobStore store;

  @Test
  void lifeCycleOnRgwWritesEachKeyOnceAndDeletesOnlyExpiredBlobsInMaintenance() throws Exception {
    try (RawS3 raw = TestBuckets.raw()) {
      String bucket = TestBuckets.create(raw.s3, true);
      try (S3BlobStore s3 = TestBuckets.store(bucket)) {
        store = new AuditingBlobStore(s3, clock);
        store.setPhase("init");
        Repository repo =
            S3Repositories.init(
                store,
                S3Repositories.small(clock)
                    .withRetention(Retention.Mode.COMPLIANCE, Duration.ofSeconds(3)));

        Map<String, Path> sources = new HashMap<>();
        Map<String, FileBackup.Result> snapshots = new HashMap<>();
        for (int v = 1; v <= 3; v++) {
          Path source = tmp.resolve("v" + v);
          if (v > 1) { // v1 shares nothing, so once it is forgotten its packs are wholly dead
            new RandomTree(100).files(8).maxFileSize(48 << 10).writeTo(source.resolve("shared"));
          }
          new RandomTree(v).files(8).maxFileSize(48 << 10).writeTo(source.resolve("own"));
          if (v == 1) {
            // RandomTree may make empty or all-zero files, whose chunks every snapshot shares, and
            // backup packs chunks of files read in parallel together; a megabyte of its own
            // random bytes gives v1 packs that no other snapshot touches, whatever the layout.
            byte[] unique = new byte[1 << 20];
            new java.util.Random(1).nextBytes(unique);
            java.nio.file.Files.write(source.resolve("own/unique.bin"), unique);
          }
          store.setPhase("backup");
          FileBackup.Result result = backup(repo, source);
          sources.put(result.id().hex(), source);
          snapshots.put("v" + v, result);
        }
        store.setPhase("forget");
        new SnapshotCatalog(repo).forget(snapshots.get("v1").id(), "test");
        store.setPhase("key");
        repo.addKey("second password".toCharArray(), S3Repositories.cheapKdf());

        // Straight after the forget: everything is retained and inside the windows.
        runMaintenance(repo);
        // Really wait out the server's retention of everything created so far.
        Instant retainedUntil =
            store.calls().stream()
                .filter(c -> c.operation() == BlobOperation.CREATE && c.retention() != null)
                .map(c -> c.retention().until())
                .max(Instant::compareTo)
                .orElseThrow();
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), retainedUntil).toMillis()) + 1100);
        // Past the mark window: v1's dead packs are marked. Past the sweep window: deleted.
        clock.advance(Duration.ofDays(2));
        runMaintenance(repo);
        clock.advance(Duration.ofHours(7));
        runMaintenance(repo);
        clock.advance(Duration.ofHours(7));
        runMaintenance(repo);

        store.assertNoNameWrittenTwice();
        store.assertDeletesOnlyIn("maintenance");
        store.assertNoDeleteOfRetained();
        assertThat(
                store.calls().stream()
                    .filter(c -> c.operation() == BlobOperation.DELETE && c.succeeded())
                    .map(c -> c.name().substring(0, c.name().indexOf('/') + 1)))
            .as("maintenance really deleted packs, the forgotten manifest and old indexes")
            .contains("packs/", "snapshots/", "index/");

        // The server's side: one version per key that exists, none of a deleted one, no markers.
        Set<String> expected = new TreeSet<>();
        for (AuditingBlobStore.Call c : store.calls()) {
          if (c.operation() == BlobOperation.CREATE && c.succeeded()) {
            expected.add(c.name());
          } else if (c.operation() == BlobOperation.DELETE && c.succeeded()) {
            expected.remove(c.name());
          }
        }
        S3Repositories.Listing listing = S3Repositories.listVersions(raw, s3.location());
        assertThat(listing.markers()).as("delete markers").isEmpty();
        Map<String, List<ObjectVersion>> versions = listing.versions();
        String prefix = s3.location().keyPrefix();
        assertThat(
                new TreeSet<>(
                    versions.keySet().stream().map(k -> k.substring(prefix.length())).toList()))
            .isEqualTo(expected);
        assertThat(versions)
            .allSatisfy((key, v) -> assertThat(v).as("versions of %s", key).hasSize(1));

        store.setPhase("restore");
        Repository reopened = S3Repositories.open(store, clock);
        List<SnapshotCatalog.Entry> live = new SnapshotCatalog(reopened).list();
        assertThat(live).hasSize(2);
        for (SnapshotCatalog.Entry e : live) {
          Path source = sources.get(e.id().hex());
          Path target = Files.createTempDirectory(tmp, "restore");
          assertThat(restore(reopened, e.manifest(), source, target).warnings()).isEmpty();
          TreeAssert.assertSameTree(source, target);
        }
        assertThat(reopened.warnings()).isEmpty();
        assertThat(S3Repositories.open(s3, clock).keys()).hasSize(2);
        store.assertDeletesOnlyIn("maintenance");
      }
    }
  }

  private void runMaintenance(Repository repo) throws Exception {
    store.setPhase("maintenance");
    new Maintenance(repo).run(false);
    store.setPhase("between");
  }
}
