package dev.stele.engine;

import static dev.stele.engine.TestRepositories.backup;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.BlobStore;
import dev.stele.blob.Retention;
import dev.stele.maintenance.Maintenance;
import dev.stele.maintenance.RetentionAudit;
import dev.stele.repo.Repository;
import dev.stele.snapshot.FileBackup;
import dev.stele.testing.AuditingBlobStore;
import dev.stele.testing.BlobOperation;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import dev.stele.testing.RandomTree;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * From the moment a snapshot's manifest exists, every blob it references is retained at least until
 * the snapshot's expiry; the audit finds any blob that is not, and agrees with maintenance.
 */
class BackupRetentionTest {
  private static final Duration MINIMUM = Duration.ofDays(1);

  @TempDir(factory = QuietTempDir.class)
  Path tmp;

  private final MutableClock clock = new MutableClock();
  private final InMemoryBlobStore memory = new InMemoryBlobStore(clock);
  private final AuditingBlobStore store = new AuditingBlobStore(memory, clock);

  private Repository init(BlobStore on) throws IOException {
    return TestRepositories.init(
        on, TestRepositories.small(clock).withRetention(Retention.Mode.COMPLIANCE, MINIMUM));
  }

  private FileBackup.Result backupFor(Repository repo, Path source, Duration retain)
      throws IOException {
    return backup(
        repo, TestRepositories.options().withExpiry(clock.instant().plus(retain)), source);
  }

  @Test
  void newBlobsAreCreatedRetainedUntilTheExpiry() throws IOException {
    Repository repo = init(store);
    Path source = new RandomTree(21).files(20).links(false).writeTo(tmp.resolve("src"));
    Instant expires = clock.instant().plus(Duration.ofDays(90));
    backupFor(repo, source, Duration.ofDays(90));
    List<AuditingBlobStore.Call> creates =
        store.calls().stream()
            .filter(c -> c.operation() == BlobOperation.CREATE)
            .filter(c -> !c.name().equals("stele.format") && !c.name().startsWith("keys/"))
            .toList();
    assertThat(creates)
        .extracting(AuditingBlobStore.Call::name)
        .anyMatch(n -> n.startsWith("packs/"));
    assertThat(creates)
        .allSatisfy(
            c ->
                assertThat(c.retention())
                    .isEqualTo(Retention.of(Retention.Mode.COMPLIANCE, expires)));
    assertThat(new RetentionAudit(repo).run().shortfalls()).isEmpty();
  }

  @Test
  void aReBackupExtendsReusedPacksBeforeItsManifest() throws IOException {
    Repository repo = init(store);
    Path source = new RandomTree(22).files(40).links(false).writeTo(tmp.resolve("src"));
    backupFor(repo, source, Duration.ofDays(30));
    int packs = memory.names().stream().filter(n -> n.startsWith("packs/")).toList().size();

    clock.advance(Duration.ofDays(1));
    store.setPhase("re-backup");
    FileBackup.Result again = backupFor(repo, source, Duration.ofDays(30));
    List<AuditingBlobStore.Call> calls =
        store.calls().stream().filter(c -> c.phase().equals("re-backup")).toList();
    long manifest =
        calls.stream()
            .filter(c -> c.operation() == BlobOperation.CREATE && c.name().startsWith("snapshots/"))
            .findFirst()
            .orElseThrow()
            .sequence();
    List<AuditingBlobStore.Call> extensions =
        calls.stream().filter(c -> c.operation() == BlobOperation.EXTEND_RETENTION).toList();
    Set<String> extendedPacks =
        extensions.stream()
            .map(AuditingBlobStore.Call::name)
            .filter(n -> n.startsWith("packs/"))
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(extendedPacks).hasSize(packs); // nothing changed: every pack is reused
    assertThat(extensions).allMatch(c -> c.sequence() < manifest);
    Instant needed = again.manifest().expires();
    for (String pack : extendedPacks) {
      assertThat(memory.retention(pack).lastsUntil(needed)).isTrue();
    }
    long retentionReads =
        calls.stream().filter(c -> c.operation() == BlobOperation.RETENTION).count();
    System.out.printf(
        "re-backup after 1 day, %d packs: %d retention reads, %d extensions, %d calls in all%n",
        packs, retentionReads, extensions.size(), calls.size());

    // A day later again: the week of slack covers it, so no extension at all.
    clock.advance(Duration.ofDays(1));
    store.setPhase("third");
    backupFor(repo, source, Duration.ofDays(30));
    List<AuditingBlobStore.Call> third =
        store.calls().stream().filter(c -> c.phase().equals("third")).toList();
    long thirdExtensions =
        third.stream().filter(c -> c.operation() == BlobOperation.EXTEND_RETENTION).count();
    long thirdReads = third.stream().filter(c -> c.operation() == BlobOperation.RETENTION).count();
    System.out.printf(
        "re-backup one more day later: %d retention reads, %d extensions%n",
        thirdReads, thirdExtensions);
    assertThat(thirdExtensions).isZero();
    assertThat(thirdReads).isEqualTo(retentionReads);
    assertThat(new RetentionAudit(repo).run().shortfalls()).isEmpty();
  }

  @Test
  void theAuditFindsRetentionLostInACopyAndAgreesWithMaintenance() throws IOException {
    Repository repo = init(memory);
    Path source = new RandomTree(23).files(20).links(false).writeTo(tmp.resolve("src"));
    backupFor(repo, source, Duration.ofDays(60));
    assertThat(new RetentionAudit(repo).run().ok()).isTrue();

    // Copied by a tool that knows nothing of retention (rsync of a directory without its
    // .retention/ records, a bucket copy without object lock): every blob is unretained.
    InMemoryBlobStore copy = new InMemoryBlobStore(clock);
    for (String name : memory.names()) {
      copy.create(name, memory.read(name), Retention.NONE);
    }
    Repository copied = TestRepositories.open(copy, clock);
    RetentionAudit.Result audit = new RetentionAudit(copied).run();
    Set<String> short_ =
        audit.shortfalls().stream()
            .map(RetentionAudit.Shortfall::blob)
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(short_)
        .anyMatch(n -> n.startsWith("packs/"))
        .anyMatch(n -> n.startsWith("snapshots/"))
        .contains("stele.format");

    Maintenance.Result run = new Maintenance(copied).run(false);
    // One computation: maintenance extends exactly what the audit reported.
    assertThat(new TreeSet<>(run.record().extended())).isEqualTo(short_);
    assertThat(new RetentionAudit(copied).run().shortfalls()).isEmpty();
  }
}
