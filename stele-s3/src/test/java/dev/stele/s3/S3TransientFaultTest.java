package dev.stele.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.blob.Retention;
import dev.stele.blob.Retention.Mode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.ObjectVersion;

/**
 * Writes that fail the way networks do — before the server sees them, or after it acted and the
 * answer was lost — still land exactly once: one version per key, the right bytes, the retention
 * asked for.
 */
class S3TransientFaultTest {
  private static final Set<String> WRITES =
      Set.of("PutObject", "UploadPart", "CompleteMultipartUpload", "PutObjectRetention");

  /** Fails one write in ten before sending it and one in ten after the server answered. */
  private static final class Faults implements S3Http.Tap {
    private final Random random = new Random(20301231L);
    final AtomicInteger before = new AtomicInteger();
    final AtomicInteger after = new AtomicInteger();

    private boolean draw(S3Http.Request request) {
      if (!WRITES.contains(request.operation())) {
        return false;
      }
      synchronized (random) {
        return random.nextDouble() < 0.1;
      }
    }

    @Override
    public S3Http.Request sending(S3Http.Request request) {
      if (draw(request)) {
        before.incrementAndGet();
        throw S3Failure.noAnswer(
            "injected: connection refused", new IOException("injected before"));
      }
      return request;
    }

    @Override
    public void answered(S3Http.Request request, int status) {
      if (draw(request)) {
        after.incrementAndGet();
        throw S3Failure.noAnswer("injected: read timed out", new IOException("injected after"));
      }
    }
  }

  @Test
  void createsLandExactlyOnceDespiteLostRequestsAndAnswers() throws Exception {
    Faults faults = new Faults();
    S3Options options =
        S3Options.defaults()
            .withMultipart(6 << 20, 5 << 20)
            .withRetries(10, Duration.ofMillis(1), Duration.ofMillis(20));
    try (RawS3 raw = TestBuckets.raw()) {
      String bucket = TestBuckets.create(raw.s3, true);
      try (S3BlobStore store = TestBuckets.store(bucket, options, List.of(faults))) {
        Random data = new Random(3);
        List<byte[]> contents = new ArrayList<>();
        Instant until =
            Instant.now().plusSeconds(120).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        int blobs = 40;
        for (int i = 0; i < blobs; i++) {
          byte[] bytes = new byte[i % 10 == 9 ? (7 << 20) + i : 1000 + i];
          data.nextBytes(bytes);
          contents.add(bytes);
          Retention retention = i % 2 == 0 ? Retention.NONE : Retention.of(Mode.GOVERNANCE, until);
          store.create("blobs/" + i, bytes, retention);
        }
        assertThat(faults.before.get()).isPositive();
        assertThat(faults.after.get()).isPositive();

        String prefix = store.location().key("blobs/");
        List<ObjectVersion> versions = new ArrayList<>();
        raw.s3
            .listObjectVersionsPaginator(b -> b.bucket(bucket).prefix(prefix))
            .versions()
            .forEach(versions::add);
        assertThat(versions).hasSize(blobs);
        assertThat(versions.stream().map(ObjectVersion::key).distinct()).hasSize(blobs);
        for (int i = 0; i < blobs; i++) {
          assertThat(store.read("blobs/" + i)).as("blob %d", i).isEqualTo(contents.get(i));
          Retention expected = i % 2 == 0 ? Retention.NONE : Retention.of(Mode.GOVERNANCE, until);
          assertThat(store.retention("blobs/" + i)).as("retention %d", i).isEqualTo(expected);
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
