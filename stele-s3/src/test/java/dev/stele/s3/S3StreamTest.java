package dev.stele.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.blob.Retention;
import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.repo.Repository;
import dev.stele.testing.RandomTree;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A streamed read is one GET; a body that breaks off is resumed from where it stopped, on the same
 * version, and {@code verify --read-data} reads each pack with one GET.
 */
class S3StreamTest {
  @TempDir Path tmp;

  /** Every GetObject as sent: the thread, the key and the range (or "whole"), and a version. */
  private static final class Gets implements S3Http.Tap {
    final List<String> seen = new ArrayList<>();

    @Override
    public S3Http.Request sending(S3Http.Request request) {
      if (request.operation().equals("GetObject")) {
        String range = request.headers().get("Range");
        String line =
            Thread.currentThread().getName()
                + " "
                + request.key()
                + " "
                + (range == null ? "whole" : range)
                + (request.query().containsKey("versionId")
                        || request.headers().containsKey("If-Match")
                    ? " pinned"
                    : "");
        synchronized (seen) {
          seen.add(line);
        }
      }
      return request;
    }

    List<String> seen() {
      synchronized (seen) {
        return List.copyOf(seen);
      }
    }
  }

  /**
   * Cuts the bodies of the first GetObject answers: answer {@code i} (from 0) delivers {@code
   * cuts[i]} bytes, then fails with an IOException if {@code fail[i]}, else just ends.
   */
  private static final class Cuts implements S3Http.Tap {
    private final int[] cuts;
    private final boolean[] fail;
    private final AtomicInteger answers = new AtomicInteger();

    Cuts(int[] cuts, boolean[] fail) {
      this.cuts = cuts;
      this.fail = fail;
    }

    @Override
    public InputStream body(S3Http.Request request, InputStream body) {
      if (!request.operation().equals("GetObject")) {
        return body;
      }
      int i = answers.getAndIncrement();
      if (i >= cuts.length) {
        return body;
      }
      return new Cut(body, cuts[i], fail[i]);
    }
  }

  private static final class Cut extends FilterInputStream {
    private long left;
    private final boolean fail;

    Cut(InputStream in, long left, boolean fail) {
      super(in);
      this.left = left;
      this.fail = fail;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (left == 0) {
        if (fail) {
          throw new IOException("injected: connection reset");
        }
        return -1;
      }
      int n = super.read(b, off, (int) Math.min(len, left));
      if (n > 0) {
        left -= n;
      }
      return n;
    }
  }

  private static S3Options quickRetries() {
    return S3Options.defaults().withRetries(4, Duration.ofMillis(1), Duration.ofMillis(5));
  }

  @Test
  void aBodyThatBreaksOffIsResumedWhereItStoppedOnTheSameVersion() throws IOException {
    for (boolean locked : new boolean[] {true, false}) {
      byte[] data = new byte[3 << 20];
      new Random(5).nextBytes(data);
      Gets gets = new Gets();
      Cuts cuts = new Cuts(new int[] {1 << 20, 300_000}, new boolean[] {true, false});
      try (RawS3 raw = TestBuckets.raw()) {
        String bucket = TestBuckets.create(raw.s3, locked);
        try (S3BlobStore store = TestBuckets.store(bucket, quickRetries(), List.of(gets, cuts))) {
          store.create("packs/p", data, Retention.NONE);
          byte[] read;
          try (InputStream in = store.openStream("packs/p")) {
            read = in.readAllBytes();
          }
          assertThat(Arrays.equals(read, data)).as("locked %s", locked).isTrue();
          String key = store.location().key("packs/p");
          String thread = Thread.currentThread().getName();
          int resumed = (1 << 20) + 300_000;
          assertThat(gets.seen())
              .as("locked %s", locked)
              .containsExactly(
                  thread + " " + key + " whole",
                  thread + " " + key + " bytes=" + (1 << 20) + "-" + (data.length - 1) + " pinned",
                  thread + " " + key + " bytes=" + resumed + "-" + (data.length - 1) + " pinned");
        }
      }
    }
  }

  @Test
  void aBodyThatKeepsBreakingOffFailsNamingTheBlob() throws IOException {
    int[] cut = new int[10];
    boolean[] fail = new boolean[10];
    Arrays.fill(cut, 1000);
    Arrays.fill(fail, true);
    try (RawS3 raw = TestBuckets.raw()) {
      String bucket = TestBuckets.create(raw.s3, false);
      try (S3BlobStore store =
          TestBuckets.store(bucket, quickRetries(), List.of(new Cuts(cut, fail)))) {
        store.create("packs/q", new byte[100_000], Retention.NONE);
        try (InputStream in = store.openStream("packs/q")) {
          assertThatThrownBy(in::readAllBytes)
              .isInstanceOf(IOException.class)
              .hasMessageContaining("packs/q: broke off at byte 4000 of 100000 4 times");
        }
      }
    }
  }

  @Test
  void verifyReadsEachPackWithOneGet() throws IOException {
    Clock clock = Clock.systemUTC();
    try (RawS3 raw = TestBuckets.raw()) {
      String bucket = TestBuckets.create(raw.s3, true);
      Gets gets = new Gets();
      try (S3BlobStore store = TestBuckets.store(bucket, S3Options.defaults(), List.of(gets))) {
        Repository repo = S3Repositories.init(store, S3Repositories.small(clock));
        Path source = new RandomTree(8).files(40).maxFileSize(256 << 10).links(false).writeTo(tmp);
        S3Repositories.backup(repo, source);
        List<String> packs =
            store.list("packs/").stream().map(dev.stele.blob.BlobInfo::name).toList();
        assertThat(packs).hasSizeGreaterThan(2);

        Verify.Result result = new Verify(repo).run(true, VerifyListener.NONE);

        assertThat(result.problems()).isEmpty();
        List<String> byVerify =
            gets.seen().stream()
                .filter(g -> g.startsWith("stele-verify "))
                .map(g -> g.substring("stele-verify ".length()))
                .toList();
        assertThat(byVerify)
            .containsExactlyInAnyOrderElementsOf(
                packs.stream().map(p -> store.location().key(p) + " whole").toList());
      }
    }
  }
}
