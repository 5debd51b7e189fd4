package dev.stele.cli;

import dev.stele.blob.BlobStore;
import java.io.IOException;
import java.net.URI;
import java.util.Map;

/**
 * Opens repositories at URLs of one scheme, such as {@code s3://bucket/prefix}. A module that adds
 * a backend (say {@code stele-s3}) implements this and lists its class in {@code
 * META-INF/services/dev.stele.cli.BlobStoreProvider}; being on the class path is enough.
 */
public interface BlobStoreProvider {
  /** The URL scheme this provider serves, lower case, without {@code ://}. */
  String scheme();

  /**
   * The blob store at {@code location}.
   *
   * @param creating true for {@code repo init}: the location may not exist yet
   */
  BlobStore open(URI location, boolean creating) throws IOException;

  /**
   * The blob store at {@code location}, with options the URL does not carry: the command line's
   * backend options ({@code endpoint}, {@code region}, {@code path-style}, {@code ca-cert}, {@code
   * profile}) and credentials from the command's environment ({@code access-key}, {@code
   * secret-key}). A provider that takes none ignores them.
   */
  default BlobStore open(URI location, Map<String, String> options, boolean creating)
      throws IOException {
    return open(location, creating);
  }
}
