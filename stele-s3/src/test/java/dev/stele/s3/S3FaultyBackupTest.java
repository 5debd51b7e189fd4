package dev.stele.s3;

import static dev.stele.s3.S3Repositories.backup;
import static dev.stele.s3.S3Repositories.restore;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.Retention;
import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.RandomTree;
import dev.stele.testing.TreeAssert;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole backups through a network that drops about one request in ten — before the server sees it
 * or after it acted and the answer was lost, reads, listings and writes alike — on an RGW lock
 * bucket: every snapshot completes, {@code verify --read-data} finds nothing, every snapshot
 * restores, and the server holds exactly one version of every key (no blind-retry duplicates).
 */
class S3FaultyBackupTest {
  @TempDir Path tmp;

  /**
   * Fails each attempt with probability 0.1, half before sending it and half after its answer came.
   * The store retries every request up to ten times, so a fault that outlasted them all (10⁻¹⁰)
   * would test the retry budget, not Stele.
   */
  private static final class Faults implements S3Http.Tap {
    private final Random random = new Random(41);
    final AtomicInteger attempts = new AtomicInteger();
    final AtomicInteger injected = new AtomicInteger();

    private void maybeFail(S3Http.Request request, boolean before) {
      if (before) {
        attempts.incrementAndGet();
      }
      boolean fail;
      synchronized (random) {
        fail = random.nextDouble() < 0.1;
      }
      if (fail) {
        injected.incrementAndGet();
        throw S3Failure.noAnswer(
            request.operation(),
            new IOException(before ? "injected: connection reset" : "injected: read timed out"));
      }
    }

    @Override
    public S3Http.Request sending(S3Http.Request request) {
      maybeFail(request, true);
      return request;
    }

    @Override
    public void answered(S3Http.Request request, int status) {
      maybeFail(request, false);
    }
  }

  @Test
  void backupsThroughAFlakyNetworkCompleteVerifyAndWriteEachKeyOnce() throws Exception {
    Clock clock = Clock.systemUTC();
    Faults faults = new Faults();
    S3Options options =
        S3Options.defaults().withRetries(10, Duration.ofMillis(1), Duration.ofMillis(20));
    try (RawS3 raw = TestBuckets.raw()) {
      String bucket = TestBuckets.create(raw.s3, true);
      try (S3BlobStore store = TestBuckets.store(bucket, options, List.of(faults))) {
        Repository repo =
            S3Repositories.init(
                store,
                S3Repositories.small(clock)
                    .withRetention(Retention.Mode.COMPLIANCE, Duration.ofHours(1)));
        List<Path> sources = new ArrayList<>();
        List<FileBackup.Result> results = new ArrayList<>();
        for (int v = 1; v <= 3; v++) {
          Path source = tmp.resolve("v" + v);
          new RandomTree(7).files(8).maxFileSize(48 << 10).writeTo(source.resolve("shared"));
          new RandomTree(v).files(8).maxFileSize(48 << 10).writeTo(source.resolve("own"));
          sources.add(source);
          results.add(backup(repo, source));
        }

        Repository reopened = S3Repositories.open(store, clock);
        assertThat(new SnapshotCatalog(reopened).list()).hasSize(3);
        Verify.Result verify = new Verify(reopened).run(true, VerifyListener.NONE);
        assertThat(verify.problems()).isEmpty();
        assertThat(verify.ok()).isTrue();
        Path target = tmp.resolve("restored");
        restore(reopened, results.get(2).manifest(), sources.get(2), target);
        TreeAssert.assertSameTree(sources.get(2), target);
        assertThat(reopened.warnings()).isEmpty();

        assertThat(faults.injected.get())
            .as("faults injected in %d attempts", faults.attempts.get())
            .isGreaterThan(faults.attempts.get() / 20);
        S3Repositories.Listing listing = S3Repositories.listVersions(raw, store.location());
        assertThat(listing.markers()).isEmpty();
        assertThat(listing.versions()).isNotEmpty();
        assertThat(listing.versions())
            .allSatisfy((key, v) -> assertThat(v).as("versions of %s", key).hasSize(1));
      }
    }
  }
}
