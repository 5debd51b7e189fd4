package dev.stele.engine;

import static dev.stele.engine.TestRepositories.backup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobInfo;
import dev.stele.maintenance.Maintenance;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.UnsupportedVersionException;
import dev.stele.snapshot.FileBackup;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Blobs written by a newer Stele are refused with a clear error, and never lead to deletion. */
class NewerVersionTest {
  @TempDir Path source;
  final MutableClock clock = new MutableClock();
  final InMemoryBlobStore store = new InMemoryBlobStore(clock);
  Repository repo;
  FileBackup.Result first;

  @BeforeEach
  void repositoryWithAForgottenSnapshot() throws Exception {
    Files.writeString(source.resolve("a.txt"), "some content\n");
    repo = TestRepositories.init(store, TestRepositories.small(clock));
    first = backup(repo, source);
    backup(repo, source);
    new SnapshotCatalog(repo).forget(first.id(), "test");
  }

  /** A maintenance record as a newer Stele might write it: version 2, and a field v1 lacks. */
  static byte[] newerRecord() {
    return ("{\"version\":2,\"time\":\"2030-01-01T00:00:00Z\",\"kind\":\"full\",\"markedPacks\":[],"
            + "\"supersededIndexes\":[],\"deleted\":[],\"deferred\":[],\"extended\":[],"
            + "\"rewrittenPacks\":[],\"holds\":[\"everything\"]}")
        .getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aRecordFromANewerSteleStopsMaintenanceBeforeAnyDelete() throws Exception {
    repo.writeBlob(BlobKind.MAINTENANCE, newerRecord());
    List<String> before = store.list("").stream().map(BlobInfo::name).toList();
    clock.advance(Duration.ofDays(30));

    for (boolean dryRun : new boolean[] {true, false}) {
      assertThatThrownBy(() -> new Maintenance(repo).run(dryRun))
          .isInstanceOf(java.io.IOException.class)
          .hasMessageContaining("maintained by a newer Stele")
          .hasMessageContaining("nothing deleted")
          .hasMessageContaining("version 2");
    }
    assertThat(store.list("").stream().map(BlobInfo::name)).containsExactlyElementsOf(before);
    assertThat(store.list("snapshots/").stream().map(BlobInfo::name))
        .contains(BlobKind.SNAPSHOT.nameOf(first.id()));
    // Readers and writers go on; the record is skipped with a warning.
    assertThat(repo.maintenanceRecords()).isEmpty();
    assertThat(repo.warnings()).anyMatch(w -> w.contains("newer"));
  }

  @Test
  void aManifestFromANewerSteleIsRefusedAndStopsMaintenance() throws Exception {
    byte[] manifest =
        new String(repo.readBlob(BlobKind.SNAPSHOT, first.id()), StandardCharsets.UTF_8)
            .replace("\"version\":1", "\"version\":2")
            .getBytes(StandardCharsets.UTF_8);
    Id newer = repo.writeBlob(BlobKind.SNAPSHOT, manifest);

    assertThatThrownBy(() -> new SnapshotCatalog(repo).read(newer))
        .isInstanceOf(UnsupportedVersionException.class)
        .hasMessageContaining(BlobKind.SNAPSHOT.nameOf(newer))
        .hasMessageContaining("version 2");
    clock.advance(Duration.ofDays(30));
    List<String> before = store.list("").stream().map(BlobInfo::name).toList();
    assertThatThrownBy(() -> new Maintenance(repo).run(false))
        .hasMessageContaining("nothing deleted")
        .hasMessageContaining("version 2");
    assertThat(store.list("").stream().map(BlobInfo::name)).containsExactlyElementsOf(before);
  }

  @Test
  void aKeyBlobFromANewerSteleIsRefused() throws Exception {
    InMemoryBlobStore other = new InMemoryBlobStore(clock);
    for (BlobInfo info : store.list("")) {
      byte[] bytes = store.read(info.name());
      String name = info.name();
      if (name.startsWith("keys/")) {
        bytes =
            new String(bytes, StandardCharsets.UTF_8)
                .replace("\"version\":1", "\"version\":2")
                .getBytes(StandardCharsets.UTF_8);
        name =
            "keys/" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
      }
      other.create(name, bytes, store.retention(info.name()));
    }
    assertThatThrownBy(() -> TestRepositories.open(other, clock))
        .isInstanceOf(UnsupportedVersionException.class)
        .hasMessageContaining("version 2")
        .hasMessageContaining("newer Stele");
  }
}
