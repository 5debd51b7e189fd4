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
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Whole backups through a network that drops about one request in ten — before the server sees it
 * or after it acted and the answer was lost, reads, listings and writes alike — on an RGW lock
 * bucket: every snapshot completes, {@code verify --read-data} finds nothing, every snapshot
 * restores, and the server holds exactly one version of every key (no blind-retry duplicates).
 */
class S3FaultyBackupTest {
  @TempDir Path tmp;

  /**
   * Fails each attempt with probability 0.1, half before transmission and half after, but never
   * twice in one SDK execution: reads rely on the SDK's own retries (a few attempts), writes on the
   * store's, and a fault that outlasted every attempt would test the retry budget, not Stele.
   */
  private static final class Faults implements ExecutionInterceptor {
    private static final ExecutionAttribute<Boolean> FAILED = new ExecutionAttribute<>("injected");
    private final Random random = new Random(41);
    final AtomicInteger attempts = new AtomicInteger();
    final AtomicInteger injected = new AtomicInteger();

    private void maybeFail(ExecutionAttributes attributes, boolean before) {
      if (before) {
        attempts.incrementAndGet();
      }
      if (Boolean.TRUE.equals(attributes.getAttribute(FAILED))) {
        return;
      }
      boolean fail;
      synchronized (random) {
        fail = random.nextDouble() < 0.1;
      }
      if (fail) {
        attributes.putAttribute(FAILED, true);
        injected.incrementAndGet();
        throw SdkClientException.create(
            before ? "injected: connection reset" : "injected: read timed out",
            new IOException("injected"));
      }
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes a) {
      maybeFail(a, true);
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes a) {
      maybeFail(a, false);
    }
  }

  @Test
  void backupsThroughAFlakyNetworkCompleteVerifyAndWriteEachKeyOnce() throws Exception {
    Clock clock = Clock.systemUTC();
    Faults faults = new Faults();
    S3Options options =
        S3Options.defaults().withRetries(10, Duration.ofMillis(1), Duration.ofMillis(20));
    try (S3Clients raw = TestBuckets.raw()) {
      String bucket = TestBuckets.create(raw.reads, true);
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
