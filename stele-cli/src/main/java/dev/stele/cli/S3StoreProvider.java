package dev.stele.cli;

import dev.stele.blob.BlobStore;
import dev.stele.repo.RepositoryExistsException;
import dev.stele.s3.S3BlobStore;
import dev.stele.s3.S3Location;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code s3://bucket/prefix} repositories. Credentials come from the AWS SDK's default chain
 * (environment, {@code ~/.aws} profiles, instance roles) unless the command's environment has
 * {@code AWS_ACCESS_KEY_ID} and {@code AWS_SECRET_ACCESS_KEY} or {@code --profile} is given.
 */
public final class S3StoreProvider implements BlobStoreProvider {
  @Override
  public String scheme() {
    return "s3";
  }

  @Override
  public BlobStore open(URI location, boolean creating) throws IOException {
    return open(location, Map.of(), creating);
  }

  @Override
  public BlobStore open(URI uri, Map<String, String> options, boolean creating) throws IOException {
    S3Location location;
    try {
      location = S3Location.parse(uri);
      if (options.containsKey("endpoint")) {
        location = location.withEndpoint(URI.create(options.get("endpoint")));
      }
      if (options.containsKey("region")) {
        location = location.withRegion(options.get("region"));
      }
      if (Boolean.parseBoolean(options.get("path-style"))) {
        location = location.withPathStyle(true);
      }
      if (options.containsKey("ca-cert")) {
        location = location.withCaCert(Path.of(options.get("ca-cert")));
      }
      if (options.containsKey("profile")) {
        location = location.withProfile(options.get("profile"));
      } else if (options.containsKey("access-key") && options.containsKey("secret-key")) {
        location = location.withCredentials(options.get("access-key"), options.get("secret-key"));
      }
    } catch (IllegalArgumentException e) {
      throw CliException.usage(e.getMessage());
    }
    S3BlobStore store = S3BlobStore.open(location);
    if (creating) {
      try {
        if (!store.list("").isEmpty()) {
          throw new RepositoryExistsException(
              location + " is not empty: init only creates a repository under an empty prefix");
        }
      } catch (IOException | RuntimeException e) {
        store.close();
        throw e;
      }
    }
    return store;
  }
}
