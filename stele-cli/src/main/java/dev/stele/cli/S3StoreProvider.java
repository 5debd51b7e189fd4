package dev.stele.cli;

import dev.stele.blob.BlobStore;
import dev.stele.crypto.NativeDigests;
import dev.stele.repo.RepositoryExistsException;
import dev.stele.s3.S3BlobStore;
import dev.stele.s3.S3Location;
import java.io.IOException;
import java.net.URI;
import java.util.Map;

/**
 * {@code s3://bucket/prefix} repositories. Credentials come from where the AWS SDK's default chain
 * would look (environment, {@code ~/.aws} profiles, instance roles) unless the command's
 * environment has {@code AWS_ACCESS_KEY_ID} and {@code AWS_SECRET_ACCESS_KEY} or {@code --profile}
 * is given.
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
      location = S3Location.parse(uri).withOptions(options);
    } catch (IllegalArgumentException e) {
      throw CliException.usage(e.getMessage());
    }
    // The store signs each upload's payload (SHA-256, over plain HTTP) and sets its Content-MD5,
    // both through MessageDigest: OpenSSL's where it loads, so that a command running
    // with C1 alone (the launcher's choice) does not hash at bytecode speed.
    NativeDigests.install();
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
