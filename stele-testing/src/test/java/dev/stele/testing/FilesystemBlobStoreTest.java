package dev.stele.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobExistsException;
import dev.stele.blob.BlobRetainedException;
import dev.stele.blob.BlobStore;
import dev.stele.blob.FilesystemBlobStore;
import dev.stele.blob.Retention;
import dev.stele.blob.Retention.Mode;
import dev.stele.blob.StorageRefusedException;
import dev.stele.blob.StorageRefusedException.Problem;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FilesystemBlobStoreTest extends BlobStoreContractTest {
  @TempDir Path root;

  @Override
  protected BlobStore newStore(MutableClock clock) {
    return new FilesystemBlobStore(root, clock);
  }

  private Instant inAMonth() {
    return clock.instant().plus(Duration.ofDays(30));
  }

  @Override
  protected boolean readsIntoTheCallersBuffer() {
    return true;
  }

  @ParameterizedTest
  @CsvSource({
    "022, r--r--r--, r--------, rwxr-xr-x",
    "002, r--r--r--, r--------, rwxrwxr-x",
    "027, r--r-----, r--------, rwxr-x---",
    "077, r--------, r--------, rwx------",
  })
  void filesAreReadOnlyWithTheUmasksReadBitsAndKeyBlobsTheOwnersAlone(
      String umask, String blob, String key, String directory) throws Exception {
    assertThat(blobsProcess("create", umask)).isEqualTo("ok");
    assertThat(modes("packs/p")).isEqualTo(blob);
    assertThat(modes("stele.format")).isEqualTo(blob);
    assertThat(modes("keys/k")).isEqualTo(key);
    assertThat(modes("packs")).isEqualTo(directory);
    assertThat(modes("keys")).isEqualTo(directory);
  }

  @Test
  void aUserWhoMayNotWriteIsRefusedWithTheDirectoryNamed() throws Exception {
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
    String result = blobsProcess("create", "022", NOBODY);
    // The directory that refused, not the temporary file's random name in it.
    assertThat(result)
        .isEqualTo(
            "PERMISSION_DENIED "
                + root.resolve(".tmp")
                + ": permission denied, cannot write stele.format");
    assertThat(store.list("")).isEmpty();
  }

  @Test
  void onlyTheOwnerReadsKeyBlobsUnlessTheRootIsSharedWithAGroup() throws Exception {
    Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
    assertThat(blobsProcess("create", "022")).isEqualTo("ok");
    String group = Files.getAttribute(root.resolve("keys/k"), "unix:gid").toString();
    String[] groupMember = {"setpriv", "--reuid=65534", "--regid=" + group, "--clear-groups"};
    // The format blob and the pack are read before the key blob is refused.
    assertThat(blobsProcess("read", "022", groupMember))
        .isEqualTo("DENIED " + root.resolve("keys/k"));
    assertThat(blobsProcess("read", "022", NOBODY)).isEqualTo("DENIED " + root.resolve("keys/k"));
  }

  @Test
  void inASetGroupIdRootTheGroupReadsKeyBlobsAndOthersOnlyTheRest() throws Exception {
    assertThat(new ProcessBuilder("chmod", "2755", root.toString()).start().waitFor()).isZero();
    assertThat(blobsProcess("create", "022")).isEqualTo("ok");
    assertThat(modes("keys/k")).isEqualTo("r--r-----");
    String group = Files.getAttribute(root.resolve("keys/k"), "unix:gid").toString();
    String[] groupMember = {"setpriv", "--reuid=65534", "--regid=" + group, "--clear-groups"};
    assertThat(blobsProcess("read", "022", groupMember)).isEqualTo("ok");
    assertThat(blobsProcess("read", "022", NOBODY)).isEqualTo("DENIED " + root.resolve("keys/k"));
  }

  private static final String[] NOBODY = {
    "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"
  };

  /**
   * Runs {@link BlobsProcess} with {@code action} on the root under {@code umask}, through {@code
   * runAs} if given.
   */
  private String blobsProcess(String action, String umask, String... runAs) throws Exception {
    List<String> command =
        new ArrayList<>(List.of("sh", "-c", "umask " + umask + "; exec \"$@\"", "sh"));
    command.addAll(List.of(runAs));
    command.addAll(
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            System.getProperty("java.class.path"),
            BlobsProcess.class.getName(),
            action,
            root.toString()));
    Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(child.waitFor()).as(output).isZero();
    return output.strip();
  }

  private String modes(String relative) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve(relative)));
  }

  @Test
  void temporaryFilesAreNotListed() throws IOException {
    store.create("a", new byte[] {1}, Retention.of(Mode.GOVERNANCE, inAMonth()));
    Files.createDirectories(root.resolve(".tmp"));
    Files.write(root.resolve(".tmp/half-written.tmp"), new byte[] {1, 2});
    assertThat(store.list("")).extracting(b -> b.name()).containsExactly("a");
    try (Stream<Path> records = Files.list(root.resolve(".retention/a"))) {
      assertThat(records).hasSize(1);
    }
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
  void theFirstWriteRemovesTemporariesADayOldAndKeepsYoungerOnes() throws IOException {
    Path stale = temporary("stale.tmp", Duration.ofHours(25));
    Path young = temporary("young.tmp", Duration.ofHours(23));
    store.create("published", new byte[] {1}, Retention.NONE);
    assertThat(stale).doesNotExist();
    assertThat(young).exists();
    assertThat(store.read("published")).containsExactly(1);
    try (Stream<Path> temporaries = Files.list(root.resolve(".tmp"))) {
      assertThat(temporaries).containsExactly(young);
    }
  }

  @Test
  void temporariesAreSweptOncePerStoreNotPerWrite() throws IOException {
    store.create("first", new byte[] {1}, Retention.NONE);
    Path stale = temporary("stale.tmp", Duration.ofDays(2));
    store.create("second", new byte[] {1}, Retention.NONE);
    assertThat(stale).exists();

    new FilesystemBlobStore(root, clock).extendRetention("first", Mode.GOVERNANCE, inAMonth());
    assertThat(stale).doesNotExist();
  }

  @Test
  void aStoreThatOnlyReadsLeavesTemporariesAlone() throws IOException {
    store.create("a", new byte[] {1}, Retention.NONE);
    Path stale = temporary("stale.tmp", Duration.ofDays(2));
    FilesystemBlobStore reader = new FilesystemBlobStore(root, clock);
    assertThat(reader.read("a")).containsExactly(1);
    assertThat(reader.list("")).hasSize(1);
    assertThatThrownBy(() -> reader.create("a", new byte[] {1}, Retention.NONE))
        .isInstanceOf(BlobExistsException.class);
    assertThat(stale).exists();
  }

  /** A temporary file last written {@code age} ago, as a crashed writer leaves one. */
  private Path temporary(String name, Duration age) throws IOException {
    Path file =
        Files.write(Files.createDirectories(root.resolve(".tmp")).resolve(name), new byte[1]);
    Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
    return file;
  }

  @Test
  void aRootThatIsAFileIsRefusedNotReadAsEmpty() throws IOException {
    Path file = Files.writeString(root.resolve("file"), "not a repository");
    for (Path badRoot : List.of(file, file.resolve("below"))) {
      FilesystemBlobStore bad = new FilesystemBlobStore(badRoot, clock);
      List<ThrowingCallable> operations =
          List.of(
              () -> bad.read("stele.format"),
              () -> bad.list(""),
              () -> bad.list("keys/"),
              () -> bad.stat("stele.format"),
              () -> bad.create("stele.format", new byte[] {1}, Retention.NONE),
              () -> bad.create("keys/k", new byte[] {1}, Retention.NONE));
      for (ThrowingCallable operation : operations) {
        assertThatThrownBy(operation)
            .isInstanceOfSatisfying(
                StorageRefusedException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.NOT_A_DIRECTORY))
            .hasMessageStartingWith(file + " is not a directory");
      }
    }
    assertThat(Files.readString(file)).isEqualTo("not a repository");
  }

  @Test
  void aFullDiskRefusesEachCreateWithTheRootNamedAndKeepsWhatWasWritten() throws IOException {
    Path mounted = Files.createDirectories(root.resolve("small"));
    try (SmallFilesystem disk = SmallFilesystem.mount(mounted, 1 << 20)) {
      FilesystemBlobStore small = new FilesystemBlobStore(mounted.resolve("repo"), clock);
      small.create("packs/kept", new byte[] {7}, Retention.of(Mode.GOVERNANCE, inAMonth()));
      byte[] big = new byte[2 << 20];
      assertNoSpace(() -> small.create("packs/big", big, Retention.NONE), small, "packs/big");

      disk.fillLeaving(0);
      Retention retained = Retention.of(Mode.COMPLIANCE, inAMonth());
      assertNoSpace(() -> small.create("index/new", new byte[] {1}, retained), small, "index/new");
      assertNoSpace(
          () -> small.create("snapshots/new", new byte[] {1}, Retention.NONE),
          small,
          "snapshots/new");
      assertNoSpace(
          () -> small.extendRetention("packs/kept", Mode.GOVERNANCE, inAMonth().plusSeconds(60)),
          small,
          "packs/kept");

      assertThat(small.list("")).extracting(b -> b.name()).containsExactly("packs/kept");
      assertThat(small.read("packs/kept")).containsExactly(7);
      assertThat(small.retention("packs/kept"))
          .isEqualTo(Retention.of(Mode.GOVERNANCE, inAMonth()));
      try (Stream<Path> temporaries = Files.list(mounted.resolve("repo/.tmp"))) {
        assertThat(temporaries).isEmpty();
      }

      disk.free();
      small.create("index/new", new byte[] {1}, retained);
      assertThat(small.read("index/new")).containsExactly(1);
    }
  }

  private static void assertNoSpace(
      ThrowingCallable create, FilesystemBlobStore store, String name) {
    assertThatThrownBy(create)
        .isInstanceOfSatisfying(
            StorageRefusedException.class, e -> assertThat(e.problem()).isEqualTo(Problem.NO_SPACE))
        .hasMessage(store.describe() + ": no space left on device, cannot write " + name);
  }

  @Test
  void aReadOnlyFilesystemRefusesWritesAndStillReads() throws IOException {
    Path mounted = Files.createDirectories(root.resolve("small"));
    try (SmallFilesystem disk = SmallFilesystem.mount(mounted, 1 << 20)) {
      FilesystemBlobStore small = new FilesystemBlobStore(mounted.resolve("repo"), clock);
      small.create("packs/kept", new byte[] {7}, Retention.NONE);
      disk.readOnly(true);
      try {
        assertThatThrownBy(() -> small.create("packs/new", new byte[] {1}, Retention.NONE))
            .isInstanceOfSatisfying(
                StorageRefusedException.class,
                e -> assertThat(e.problem()).isEqualTo(Problem.READ_ONLY))
            .hasMessage(small.describe() + ": read-only file system, cannot write packs/new");
        assertThat(small.read("packs/kept")).containsExactly(7);
      } finally {
        disk.readOnly(false);
      }
    }
  }

  @Test
  void aFileBuiltInTheSpoolDirectoryBecomesTheBlobWithoutACopy() throws IOException {
    Path spool = store.spoolDirectory();
    assertThat(spool).isNotNull();
    Files.createDirectories(spool);
    Path file = Files.write(spool.resolve("pack.tmp"), new byte[] {1, 2, 3});
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

    store.create("packs/p", file, Retention.of(Mode.GOVERNANCE, inAMonth()));

    // One inode, made read-only for both names: the caller's name goes, the blob stays.
    assertThat(Files.isSameFile(file, root.resolve("packs/p"))).isTrue();
    assertThat(modes("packs/p")).isEqualTo("r--r--r--");
    assertThat(modes(".tmp/pack.tmp")).isEqualTo("r--r--r--");
    Files.delete(file);
    assertThat(store.read("packs/p")).containsExactly(1, 2, 3);
    assertThat(store.list("")).extracting(b -> b.name()).containsExactly("packs/p");
    try (Stream<Path> left = Files.list(spool)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void aSecretBlobFromAFileIsACopyWithTheStoresOwnModes() throws IOException {
    Path file = Files.write(root.resolveSibling(root.getFileName() + "-key"), new byte[] {7});
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

    store.create("keys/k", file, Retention.NONE);

    assertThat(Files.isSameFile(file, root.resolve("keys/k"))).isFalse();
    assertThat(modes("keys/k")).isEqualTo("r--------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-r--r--");
    Files.delete(file);
  }

  @Test
  void describeNamesTheRoot() {
    assertThat(store.describe()).isEqualTo(root.toAbsolutePath().normalize().toString());
    assertThat(store.capabilities().objectLock()).isFalse();
    assertThat(store.capabilities().conditionalCreate()).isTrue();
  }

  @Test
  void aStreamedBlobThatShrinksWhileReadIsAnErrorNotAnEarlyEnd() throws IOException {
    store.create("packs/p", new byte[1000], Retention.NONE);
    Path file = root.resolve("packs/p");
    try (InputStream in = store.openStream("packs/p")) {
      assertThat(in.readNBytes(10)).hasSize(10);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      try (FileChannel truncate = FileChannel.open(file, StandardOpenOption.WRITE)) {
        truncate.truncate(500);
      }
      assertThatThrownBy(in::readAllBytes)
          .isInstanceOf(EOFException.class)
          .hasMessageContaining("packs/p: shrank while being read, at 500 of 1000");
    }
  }
}
