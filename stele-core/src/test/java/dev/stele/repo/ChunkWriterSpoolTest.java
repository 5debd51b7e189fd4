package dev.stele.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobStore;
import dev.stele.blob.FilesystemBlobStore;
import dev.stele.blob.ForwardingBlobStore;
import dev.stele.blob.Retention;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Packs are built in spool files, stored whole from them, and leave none behind. */
class ChunkWriterSpoolTest {
  private static final char[] PASSWORD = "spool".toCharArray();

  @TempDir Path root;

  private Repository init(BlobStore store) throws IOException {
    return SmallPackRepositories.init(store, PASSWORD);
  }

  @Test
  void packsAreStoredWholeFromTheSpoolWhichIsEmptiedAfterwards() throws IOException {
    Path spool = root.resolve("spool");
    List<Path> offered = new CopyOnWriteArrayList<>();
    Repository repo = init(recordingFileCreates(offered));
    writePacks(repo, spool);
    assertThat(offered).isNotEmpty().allMatch(file -> file.startsWith(spool));
    assertThat(spoolFiles(spool)).isEmpty();
  }

  @Test
  void onALocalStorePacksAreBuiltInItsOwnDirectoryAndLinkedNotCopied() throws IOException {
    List<Object> spooledInodes = new CopyOnWriteArrayList<>();
    BlobStore local =
        new ForwardingBlobStore(FilesystemBlobStore.open(root.resolve("repo"))) {
          @Override
          public void create(String name, Path file, Retention retention) throws IOException {
            spooledInodes.add(Files.getAttribute(file, "unix:ino"));
            delegate().create(name, file, retention);
          }
        };
    Repository repo = init(local);
    try (ChunkWriter writer = repo.newWriter(2)) {
      putRandomChunks(writer, 40, 8 << 10);
      writer.flush();
    }

    List<Object> packInodes = new ArrayList<>();
    Object formatModes = Files.getAttribute(root.resolve("repo/stele.format"), "unix:mode");
    for (BlobInfo pack : repo.store().list(Pack.PREFIX)) {
      Path file = root.resolve("repo").resolve(pack.name());
      packInodes.add(Files.getAttribute(file, "unix:ino"));
      // Readable as a blob written from memory is: the spool file asked for the same modes.
      assertThat(Files.getAttribute(file, "unix:mode")).isEqualTo(formatModes);
    }
    assertThat(packInodes).hasSizeGreaterThanOrEqualTo(4);
    assertThat(spooledInodes).containsExactlyInAnyOrderElementsOf(packInodes);
    assertThat(spoolFiles(local.spoolDirectory())).isEmpty();
  }

  @Test
  void aFailedWriterLeavesNoSpoolFileBehind() throws IOException {
    Path spool = root.resolve("spool");
    List<Path> offered = new CopyOnWriteArrayList<>();
    BlobStore refusingPacks =
        new ForwardingBlobStore(FilesystemBlobStore.open(root.resolve("repo"))) {
          @Override
          public void create(String name, Path file, Retention retention) throws IOException {
            offered.add(file);
            throw new IOException("refused " + name);
          }
        };
    Repository repo = init(refusingPacks);
    ChunkWriter writer = repo.newWriter(1, null, spool);
    assertThatThrownBy(
            () -> {
              putRandomChunks(writer, 20, 8 << 10); // two full packs and one begun
              writer.flush();
            })
        .hasMessageContaining("refused packs/");
    writer.close();
    assertThat(offered).isNotEmpty().allMatch(file -> file.startsWith(spool));
    assertThat(spoolFiles(spool)).isEmpty();
    assertThat(repo.store().list(Pack.PREFIX)).isEmpty();
  }

  @Test
  void withoutAWritableSpoolDirectoryPacksAreBuiltInMemory() throws IOException {
    List<Path> offered = new CopyOnWriteArrayList<>();
    Repository repo = init(recordingFileCreates(offered));
    Path notADirectory = Files.writeString(root.resolve("file"), "a file, not a directory");
    writePacks(repo, notADirectory.resolve("spool"));
    assertThat(offered).isEmpty();
  }

  /** A filesystem store that records each file a pack is created from. */
  private BlobStore recordingFileCreates(List<Path> offered) {
    return new ForwardingBlobStore(FilesystemBlobStore.open(root.resolve("repo"))) {
      @Override
      public void create(String name, Path file, Retention retention) throws IOException {
        offered.add(file);
        delegate().create(name, file, retention);
      }
    };
  }

  /** Stores enough chunks for several packs through {@code spool}; every pack must check. */
  private static void writePacks(Repository repo, Path spool) throws IOException {
    try (ChunkWriter writer = repo.newWriter(2, null, spool)) {
      putRandomChunks(writer, 40, 8 << 10);
      writer.flush();
    }
    List<BlobInfo> packs = repo.store().list(Pack.PREFIX);
    assertThat(packs).hasSizeGreaterThanOrEqualTo(4);
    for (BlobInfo pack : packs) {
      byte[] bytes = repo.store().read(pack.name());
      assertThat(PackCheck.check(repo, pack.name(), bytes, repo.index().packs().get(pack.name())))
          .isEmpty();
    }
  }

  private static void putRandomChunks(ChunkWriter writer, int count, int size) throws IOException {
    Random random = new Random(count);
    for (int i = 0; i < count; i++) {
      byte[] data = new byte[size];
      random.nextBytes(data);
      writer.store(ChunkType.DATA, data);
    }
  }

  private static List<Path> spoolFiles(Path spool) throws IOException {
    if (!Files.isDirectory(spool)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(spool)) {
      return files.toList();
    }
  }
}
