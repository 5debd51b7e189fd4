package dev.stele.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobExistsException;
import dev.stele.blob.BlobRetainedException;
import dev.stele.blob.BlobStore;
import dev.stele.blob.FilesystemBlobStore;
import dev.stele.blob.Retention;
import dev.stele.blob.Retention.Mode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilesystemBlobStoreTest extends BlobStoreContractTest {
  @TempDir Path root;

  @Override
  protected BlobStore newStore(MutableClock clock) {
    return new FilesystemBlobStore(root, clock);
  }

  private Instant inAMonth() {
    return clock.instant().plus(Duration.ofDays(30));
  }

  @Test
  void publishedFilesAreReadOnly() throws IOException {
    store.create("packs/00/0001", new byte[] {1}, Retention.NONE);
    assertThat(Files.getPosixFilePermissions(root.resolve("packs/00/0001")))
        .isEqualTo(PosixFilePermissions.fromString("r--r--r--"));
  }

  @Test
  void temporaryFilesAreNotListed() throws IOException {
    store.create("a", new byte[] {1}, Retention.of(Mode.GOVERNANCE, inAMonth()));
    Files.createDirectories(root.resolve(".tmp"));
    Files.write(root.resolve(".tmp/half-written.tmp"), new byte[] {1, 2});
    assertThat(store.list("")).extracting(b -> b.name()).containsExactly("a");
    assertThat(Files.list(root.resolve(".retention/a"))).hasSize(1);
  }

  @Test
  void publishingLeavesNoTemporaryFileBehind() throws IOException {
    store.create("a", new byte[] {1}, Retention.of(Mode.GOVERNANCE, inAMonth()));
    assertThatThrownBy(() -> store.create("a", new byte[] {2}, Retention.NONE))
        .isInstanceOf(BlobExistsException.class);
    try (Stream<Path> temporaries = Files.list(root.resolve(".tmp"))) {
      assertThat(temporaries).isEmpty();
    }
  }

  @Test
  void retentionSurvivesReopeningTheStore() throws IOException {
    Instant until = inAMonth();
    store.create("kept", new byte[] {1}, Retention.of(Mode.COMPLIANCE, until));
    store.extendRetention("kept", Mode.COMPLIANCE, until.plusSeconds(60));
    store.close();

    FilesystemBlobStore reopened = new FilesystemBlobStore(root, clock);
    assertThat(reopened.retention("kept"))
        .isEqualTo(Retention.of(Mode.COMPLIANCE, until.plusSeconds(60)));
    assertThatThrownBy(() -> reopened.delete("kept")).isInstanceOf(BlobRetainedException.class);
    // The earlier, now redundant record was pruned; the one left is the documented format.
    try (Stream<Path> records = Files.list(root.resolve(".retention/kept"))) {
      List<Path> files = records.toList();
      assertThat(files).hasSize(1);
      assertThat(Files.readString(files.get(0)))
          .isEqualTo("COMPLIANCE " + until.plusSeconds(60) + "\n");
    }
  }

  @Test
  void deleteRemovesTheBlobAndItsRetentionRecords() throws IOException {
    store.create("gone", new byte[] {1}, Retention.of(Mode.GOVERNANCE, inAMonth()));
    clock.advance(Duration.ofDays(31));
    store.delete("gone");
    assertThat(root.resolve("gone")).doesNotExist();
    assertThat(root.resolve(".retention/gone")).doesNotExist();
  }

  @Test
  void blobPublishedByAnotherInstanceIsVisible() throws IOException {
    FilesystemBlobStore other = new FilesystemBlobStore(root, clock);
    other.create("shared/x", new byte[] {4, 2}, Retention.of(Mode.GOVERNANCE, inAMonth()));
    assertThat(store.read("shared/x")).containsExactly(4, 2);
    assertThat(store.list("shared/")).extracting(b -> b.name()).containsExactly("shared/x");
    assertThatThrownBy(() -> store.create("shared/x", new byte[] {1}, Retention.NONE))
        .isInstanceOf(BlobExistsException.class);
    assertThatThrownBy(() -> store.delete("shared/x")).isInstanceOf(BlobRetainedException.class);
  }

  @Test
  void aNameCannotAlsoBeADirectoryOfNames() throws IOException {
    store.create("a", new byte[] {1}, Retention.NONE);
    store.create("b/c", new byte[] {1}, Retention.NONE);
    assertThatThrownBy(() -> store.create("a/b", new byte[] {1}, Retention.NONE))
        .isInstanceOf(IOException.class)
        .isNotInstanceOf(BlobExistsException.class)
        .hasMessageContaining("a is a blob");
    assertThatThrownBy(() -> store.create("b", new byte[] {1}, Retention.NONE))
        .isInstanceOf(IOException.class)
        .isNotInstanceOf(BlobExistsException.class)
        .hasMessageContaining("directory");
  }

  @Test
  void removeStaleTemporariesDeletesOnlyOldOnes() throws IOException {
    FilesystemBlobStore filesystem = (FilesystemBlobStore) store;
    Path temporaries = Files.createDirectories(root.resolve(".tmp"));
    Instant now = Instant.now();
    Path stale = Files.write(temporaries.resolve("stale.tmp"), new byte[] {1});
    Files.setLastModifiedTime(stale, FileTime.from(now.minus(Duration.ofHours(2))));
    Path fresh = Files.write(temporaries.resolve("fresh.tmp"), new byte[] {1});
    store.create("published", new byte[] {1}, Retention.NONE);

    assertThat(filesystem.removeStaleTemporaries(now.minus(Duration.ofHours(1)))).isEqualTo(1);
    assertThat(stale).doesNotExist();
    assertThat(fresh).exists();
    assertThat(store.read("published")).containsExactly(1);
  }

  @Test
  void removeStaleTemporariesOfAFreshRootRemovesNothing() throws IOException {
    assertThat(((FilesystemBlobStore) store).removeStaleTemporaries(Instant.now())).isZero();
  }

  @Test
  void describeNamesTheRoot() {
    assertThat(store.describe()).isEqualTo(root.toAbsolutePath().normalize().toString());
    assertThat(store.capabilities().objectLock()).isFalse();
    assertThat(store.capabilities().conditionalCreate()).isTrue();
  }
}
