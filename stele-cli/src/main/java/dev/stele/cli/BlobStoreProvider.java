package dev.stele.cli;

import dev.stele.blob.BlobStore;
import java.io.IOException;
import java.net.URI;

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
}
