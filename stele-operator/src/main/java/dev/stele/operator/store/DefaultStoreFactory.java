package dev.stele.operator.store;

import dev.stele.blob.BlobStore;
import dev.stele.blob.FilesystemBlobStore;
import dev.stele.blob.Retention;
import dev.stele.s3.BucketConfig;
import dev.stele.s3.S3BlobStore;
import dev.stele.s3.S3Location;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Stores for the two providers: {@code s3} (any S3 server, {@link S3BlobStore}) and {@code
 * filesystem} (a directory mounted into the operator: {@code config.path}/bucket/prefix).
 *
 * <p>A filesystem location enforces nothing itself; its store records each blob's retention and
 * refuses to delete it early, which is why it is offered for tests and single-node set-ups only.
 */
public final class DefaultStoreFactory implements StoreFactory {
  private final Clock clock;

  public DefaultStoreFactory(Clock clock) {
    this.clock = clock;
  }

  @Override
  public BucketConfig inspect(Place place) throws IOException {
    if (place.provider().equals("filesystem")) {
      Path dir = bucketDirectory(place);
      if (!Files.isDirectory(dir)) {
        throw new IOException(
            "directory "
                + dir
                + " does not exist: create it or correct config.path and the bucket");
      }
      return new BucketConfig(place.bucket(), "Off", false, Retention.Mode.NONE, Duration.ZERO);
    }
    try (S3BlobStore store = S3BlobStore.open(s3(place, place.prefix()))) {
      return store.bucketConfig();
    }
  }

  @Override
  public BlobStore open(Place place, String path) throws IOException {
    if (place.provider().equals("filesystem")) {
      return new FilesystemBlobStore(bucketDirectory(place).resolve(path), clock);
    }
    return S3BlobStore.open(s3(place, path));
  }

  private static Path bucketDirectory(Place place) throws IOException {
    String base = place.config().get("path");
    if (base == null || base.isBlank()) {
      throw new IOException("provider filesystem needs config.path, the directory to use");
    }
    return Path.of(base).resolve(place.bucket());
  }

  /**
   * The S3 location of {@code path}: the location's Velero-style settings ({@code s3Url}, {@code
   * region}, {@code s3ForcePathStyle}) and its Secrets, given to {@link S3Location#withOptions} by
   * the names the command line uses; its keys as they are.
   */
  static S3Location s3(Place place, String path) throws IOException {
    var config = place.config();
    Map<String, String> options = new HashMap<>();
    putIfPresent(options, "endpoint", config.get("s3Url"));
    putIfPresent(options, "region", config.get("region"));
    putIfPresent(options, "path-style", config.get("s3ForcePathStyle"));
    if (place.caCertPem() != null) {
      Path pem = Files.createTempFile("stele-ca-", ".pem");
      pem.toFile().deleteOnExit();
      Files.writeString(pem, place.caCertPem(), StandardCharsets.UTF_8);
      options.put("ca-cert", pem.toString());
    }
    S3Location location = S3Location.of(place.bucket(), path).withOptions(options);
    return place.keys() == null ? location : location.withKeys(place.keys());
  }

  private static void putIfPresent(
      Map<String, String> options, String name, @Nullable String value) {
    if (value != null) {
      options.put(name, value);
    }
  }
}
