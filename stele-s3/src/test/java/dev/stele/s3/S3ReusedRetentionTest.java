package dev.stele.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.Retention;
import dev.stele.repo.Pack;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.FileBackupListener;
import dev.stele.snapshot.FileBackupOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.model.ObjectVersion;

/**
 * The invariant of write-once.md on a server that enforces it: once a snapshot's manifest exists,
 * every pack it references is retained at least until its expiry, also the packs it reuses, whose
 * retention the store already read back when it created them (and so may trust without asking).
 */
class S3ReusedRetentionTest {
  @TempDir Path tmp;

  @Test
  void reusedPacksWhoseRetentionFallsShortAreExtendedBeforeTheManifest() throws Exception {
    Clock clock = Clock.systemUTC();
    try (RawS3 raw = TestBuckets.raw()) {
      String bucket = TestBuckets.create(raw.s3, true);
      S3Location location = TestBuckets.location(bucket);
      Instant expiry = clock.instant().plus(Duration.ofHours(3)).truncatedTo(ChronoUnit.SECONDS);
      byte[] data = new byte[512 << 10];
      new Random(3).nextBytes(data);
      Files.write(Files.createDirectories(tmp.resolve("src")).resolve("f.bin"), data);
      try (S3BlobStore store = S3BlobStore.open(location)) {
        // Two hours: far enough ahead that the store trusts what it read back at creation.
        Repository repo =
            S3Repositories.init(
                store,
                S3Repositories.small(clock)
                    .withRetention(Retention.Mode.GOVERNANCE, Duration.ofHours(2)));
        S3Repositories.backup(repo, tmp.resolve("src"));
        FileBackup.Result second =
            new FileBackup(
                    repo,
                    FileBackupOptions.defaults(S3Repositories.HOST)
                        .withThreads(2)
                        .withExpiry(expiry),
                    FileBackupListener.NONE)
                .run(List.of(tmp.resolve("src")));
        assertThat(second.id()).isNotNull();
      }
      List<ObjectVersion> packs =
          S3Repositories.listVersions(raw, location).versions().entrySet().stream()
              .filter(e -> e.getKey().startsWith(location.key(Pack.PREFIX)))
              .flatMap(e -> e.getValue().stream())
              .toList();
      assertThat(packs).isNotEmpty();
      for (ObjectVersion pack : packs) {
        Instant until =
            raw.s3
                .getObjectRetention(
                    b -> b.bucket(bucket).key(pack.key()).versionId(pack.versionId()))
                .retention()
                .retainUntilDate();
        assertThat(until).as("retain-until of %s", pack.key()).isAfterOrEqualTo(expiry);
      }
    }
  }
}
