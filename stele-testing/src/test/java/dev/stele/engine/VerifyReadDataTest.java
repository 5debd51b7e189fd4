package dev.stele.engine;

import static dev.stele.engine.TestRepositories.backup;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.BlobInfo;
import dev.stele.blob.BlobStore;
import dev.stele.blob.ForwardingBlobStore;
import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.repo.PackCheck;
import dev.stele.repo.PackEntry;
import dev.stele.repo.Repository;
import dev.stele.testing.BlobOperation;
import dev.stele.testing.FaultInjectingBlobStore;
import dev.stele.testing.InMemoryBlobStore;
import dev.stele.testing.InjectedFaultException;
import dev.stele.testing.MutableClock;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code verify --read-data} reads each pack in one sequential pass, one request per pack (on S3
 * each request costs tens of milliseconds), and still checks every byte of it.
 */
class VerifyReadDataTest {
  @TempDir Path tmp;

  private final MutableClock clock = new MutableClock();
  private final InMemoryBlobStore memory = new InMemoryBlobStore(clock);

  /** Records the reads the verify threads make: the kind and the blob. */
  private static final class Reads extends ForwardingBlobStore {
    final ConcurrentLinkedQueue<String> seen = new ConcurrentLinkedQueue<>();

    Reads(BlobStore delegate) {
      super(delegate);
    }

    private void record(String kind, String name) {
      if (Thread.currentThread().getName().equals("stele-verify")) {
        seen.add(kind + " " + name);
      }
    }

    @Override
    public byte[] read(String name) throws IOException {
      record("whole", name);
      return super.read(name);
    }

    @Override
    public byte[] read(String name, long offset, int length) throws IOException {
      record("range", name);
      return super.read(name, offset, length);
    }

    @Override
    public InputStream openStream(String name) throws IOException {
      record("stream", name);
      return super.openStream(name);
    }
  }

  @BeforeEach
  void backUpSomeData() throws IOException {
    Repository repo = TestRepositories.init(memory, TestRepositories.small(clock));
    Path source = Files.createDirectories(tmp.resolve("source"));
    Random random = new Random(12);
    for (int i = 0; i < 20; i++) {
      byte[] data = new byte[random.nextInt(200 << 10)];
      random.nextBytes(data);
      Files.write(source.resolve("f" + i), data);
    }
    backup(repo, source);
  }

  @Test
  void eachPackIsReadInOneStreamAndNothingElse() throws IOException {
    Reads reads = new Reads(memory);
    Repository repo = TestRepositories.open(reads, clock);
    Verify.Result result = new Verify(repo).run(true, VerifyListener.NONE);

    assertThat(result.problems()).isEmpty();
    List<String> packs = memory.names().stream().filter(n -> n.startsWith("packs/")).toList();
    assertThat(packs).hasSizeGreaterThan(3);
    assertThat(reads.seen)
        .containsExactlyInAnyOrderElementsOf(packs.stream().map(p -> "stream " + p).toList());
  }

  @Test
  void bytesBetweenChunksAreNamedAsBelongingToNoChunk() throws IOException {
    Repository repo = TestRepositories.open(memory, clock);
    Map.Entry<String, List<PackEntry>> pack = largestPack(repo);
    List<PackEntry> entries = new ArrayList<>(pack.getValue());
    entries.sort(Comparator.comparingInt(PackEntry::offset));
    PackEntry dropped = entries.remove(entries.size() / 2);

    List<String> problems =
        PackCheck.check(repo, pack.getKey(), memory.read(pack.getKey()), entries);

    assertThat(problems)
        .contains(
            "corrupted blob "
                + pack.getKey()
                + ": "
                + dropped.length()
                + " bytes at offset "
                + dropped.offset()
                + " belong to no chunk",
            "corrupted blob " + pack.getKey() + ": footer does not list what the index says");
  }

  @Test
  void aPackShorterOrLongerThanListedIsNamed() throws IOException {
    Repository repo = TestRepositories.open(memory, clock);
    Map.Entry<String, List<PackEntry>> pack = largestPack(repo);
    BlobInfo info = memory.stat(pack.getKey());
    assertThat(PackCheck.read(repo, info, pack.getValue())).isEmpty();

    BlobInfo longer = new BlobInfo(info.name(), info.size() + 10, info.created());
    assertThat(PackCheck.read(repo, longer, pack.getValue()))
        .anySatisfy(p -> assertThat(p).contains(info.name(), "before its listed size"));
    BlobInfo shorter = new BlobInfo(info.name(), info.size() - 10, info.created());
    assertThat(PackCheck.read(repo, shorter, pack.getValue()))
        .anySatisfy(p -> assertThat(p).contains(info.name(), "longer than listed"));
  }

  @Test
  void aStreamThatBreaksOffIsAFailureNotACleanPack() throws IOException {
    FaultInjectingBlobStore faulty = new FaultInjectingBlobStore(memory, 3);
    Repository repo = TestRepositories.open(faulty, clock);
    Map.Entry<String, List<PackEntry>> pack = largestPack(repo);
    BlobInfo info = memory.stat(pack.getKey());

    faulty.failures(BlobOperation.READ, 0, 1);
    assertThatThrownBy(() -> PackCheck.read(repo, info, pack.getValue()))
        .isInstanceOf(InjectedFaultException.class)
        .hasMessageContaining(info.name() + " broke off");
  }

  private static Map.Entry<String, List<PackEntry>> largestPack(Repository repo)
      throws IOException {
    return repo.loadIndex().packs().entrySet().stream()
        .max(Comparator.comparingInt(p -> p.getValue().size()))
        .orElseThrow();
  }
}
