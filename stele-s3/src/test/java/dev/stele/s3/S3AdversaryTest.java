package dev.stele.s3;

import static dev.stele.s3.S3Repositories.backup;
import static dev.stele.s3.S3Repositories.restore;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.Retention;
import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.RandomTree;
import dev.stele.testing.TreeAssert;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The adversary holds the repository's own credentials on a COMPLIANCE bucket in Ceph RGW. It
 * overwrites packs, index blobs, a snapshot manifest, the key blobs and the format blob with
 * garbage, hides a snapshot and some packs behind delete markers, and tries to delete the locked
 * versions by id, which the server refuses. A repository opened as of before the attack restores
 * every byte of both snapshots; without {@code --as-of}, the overwritten and hidden blobs an index
 * or a listing names are read from their original versions with a warning naming each, and the
 * hidden snapshot is not listed (as {@code docs/design.md}, "Point in time", says).
 */
class S3AdversaryTest {
  @TempDir Path tmp;

  private final Clock clock = Clock.systemUTC();

  @Test
  void attackerWithTheCredentialsCannotTakeAByte() throws Exception {
    try (RawS3 setup = TestBuckets.raw()) {
      String bucket = TestBuckets.create(setup.s3, true);
      try (S3BlobStore store = TestBuckets.store(bucket)) {
        Repository repo =
            S3Repositories.init(
                store,
                S3Repositories.small(clock)
                    .withRetention(Retention.Mode.COMPLIANCE, Duration.ofDays(1)));
        Path first =
            new RandomTree(31)
                .files(12)
                .maxFileSize(48 << 10)
                .links(false)
                .writeTo(tmp.resolve("a"));
        Path second =
            new RandomTree(32)
                .files(12)
                .maxFileSize(48 << 10)
                .links(false)
                .writeTo(tmp.resolve("b"));
        FileBackup.Result one = backup(repo, first);
        FileBackup.Result two = backup(repo, second);
        // Last-Modified has a resolution of a second or worse: keep clear of both sides.
        Thread.sleep(1100);
        Instant beforeAttack = Instant.now();
        Thread.sleep(1100);

        List<String> overwritten = new ArrayList<>();
        List<String> hidden = new ArrayList<>();
        try (RawS3 attacker = TestBuckets.raw()) {
          Map<String, List<ObjectVersion>> originals =
              S3Repositories.listVersions(attacker, store.location()).versions();
          String prefix = store.location().keyPrefix();
          int packs = 0;
          for (String key : originals.keySet().stream().sorted().toList()) {
            String name = key.substring(prefix.length());
            boolean hide =
                name.equals("snapshots/" + one.id().hex())
                    || (name.startsWith("packs/") && packs++ % 3 == 0);
            if (hide) {
              attacker.s3.deleteObject(b -> b.bucket(bucket).key(key));
              hidden.add(name);
            } else {
              attacker.s3.putObject(
                  b -> b.bucket(bucket).key(key),
                  RequestBody.fromBytes(("garbage " + name).getBytes(StandardCharsets.UTF_8)));
              overwritten.add(name);
            }
            // The locked original cannot be deleted by id, bypass header or not.
            String original = originals.get(key).get(0).versionId();
            boolean bypass = packs % 2 == 0;
            assertThatThrownBy(
                    () ->
                        attacker.s3.deleteObject(
                            b ->
                                b.bucket(bucket)
                                    .key(key)
                                    .versionId(original)
                                    .bypassGovernanceRetention(bypass)))
                .as("deleting the locked version of %s", name)
                .isInstanceOfSatisfying(
                    S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
          }
          assertThat(originals.values()).allSatisfy(v -> assertThat(v).hasSize(1));
        }
        assertThat(overwritten)
            .contains("stele.format", "snapshots/" + two.id().hex())
            .anyMatch(n -> n.startsWith("packs/"))
            .anyMatch(n -> n.startsWith("index/"))
            .anyMatch(n -> n.startsWith("keys/"));
        assertThat(hidden).anyMatch(n -> n.startsWith("packs/"));

        // As of before the attack: the repository as it was, every byte, no warning.
        Repository asOf = S3Repositories.open(store.asOf(beforeAttack), clock);
        SnapshotCatalog past = new SnapshotCatalog(asOf);
        assertThat(past.list()).hasSize(2);
        restore(asOf, past.read(one.id()), first, tmp.resolve("asof-a"));
        restore(asOf, past.read(two.id()), second, tmp.resolve("asof-b"));
        TreeAssert.assertSameTree(first, tmp.resolve("asof-a"));
        TreeAssert.assertSameTree(second, tmp.resolve("asof-b"));
        assertThat(new Verify(asOf).run(true, VerifyListener.NONE).problems()).isEmpty();
        assertThat(asOf.warnings()).isEmpty();

        // Now, without as-of: overwritten blobs fall back to their original versions, with a
        // warning naming each; packs the index names are found behind their markers; the hidden
        // snapshot is not listed.
        Repository now = S3Repositories.open(store, clock);
        SnapshotCatalog catalog = new SnapshotCatalog(now);
        assertThat(catalog.list()).extracting(SnapshotCatalog.Entry::id).containsExactly(two.id());
        restore(now, catalog.read(two.id()), second, tmp.resolve("now-b"));
        TreeAssert.assertSameTree(second, tmp.resolve("now-b"));
        Verify.Result verify = new Verify(now).run(true, VerifyListener.NONE);
        List<String> warnings = now.warnings();
        // What the restore and the repository's own reads touched fell back, each with a warning.
        assertThat(warnings)
            .anyMatch(w -> w.startsWith("stele.format failed verification at its current version"))
            .anyMatch(w -> w.startsWith("snapshots/" + two.id().hex() + " failed verification"))
            .anyMatch(w -> w.matches("keys/\\p{XDigit}+ failed verification at its current .*"))
            .anyMatch(w -> w.matches("index/\\p{XDigit}+ failed verification at its current .*"))
            .anyMatch(w -> w.matches("packs/\\p{XDigit}+ failed verification at its current .*"))
            .anyMatch(w -> w.matches("packs/\\p{XDigit}+ is missing at its current version.*"))
            .allMatch(w -> w.contains("; read version "));
        for (String name : overwritten) {
          if (name.startsWith("index/") || name.startsWith("keys/")) {
            assertThat(warnings).as("a warning names %s", name).anyMatch(w -> w.startsWith(name));
          }
        }
        // verify --read-data names every blob the attacker touched that the repository reaches.
        for (String name : overwritten) {
          assertThat(verify.problems()).as("verify names %s", name).anyMatch(p -> p.contains(name));
        }
        for (String name : hidden) {
          if (name.startsWith("packs/")) {
            assertThat(verify.problems())
                .as("verify names %s", name)
                .anyMatch(p -> p.contains(name));
          }
        }
        assertThat(verify.ok()).as("verify reports the tampering").isFalse();
      }
    }
  }
}
